package io.kuberaysim.api.schema;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The field's value is kept exactly as given ({@code x-kubernetes-preserve-unknown-fields: true}): no pruning,
 * defaulting or validation below it. Used for embedded Kubernetes objects such as Pod templates.
 * Fields typed {@code JsonNode}/{@code ObjectNode} are treated this way even without the annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD})
public @interface PreserveUnknownFields {
}
