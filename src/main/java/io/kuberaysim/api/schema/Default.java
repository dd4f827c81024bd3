package io.kuberaysim.api.schema;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * CRD default of a field, written as a JSON literal: {@code @Default("0")}, {@code @Default("\"K8sJobMode\"")}.
 * Structural defaulting inserts it wherever the enclosing object is present and the field is absent.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD})
public @interface Default {
    /** The default value as JSON text. */
    String value();
}
