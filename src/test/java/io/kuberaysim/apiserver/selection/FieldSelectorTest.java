package io.kuberaysim.apiserver.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;

class FieldSelectorTest {

    private static final Map<String, String> FIELDS = Map.of(
            "metadata.name", "x", "metadata.namespace", "default", "status.phase", "Running",
            "involvedObject.kind", "RayCluster", "odd", "a,b=c\\d");

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "metadata.name=x                                    | true",
        "metadata.name==x                                   | true",
        "metadata.name=y                                    | false",
        "metadata.name!=y                                   | true",
        "metadata.name!=x                                   | false",
        "metadata.name=x,metadata.namespace=default         | true",
        "metadata.name=x,metadata.namespace=other           | false",
        "spec.nodeName=                                     | true",
        "spec.nodeName!=                                    | false",
        "status.phase!=Pending,involvedObject.kind=RayCluster | true",
        "'odd=a\\,b\\=c\\\\d'                               | true",
    })
    void matches(String selector, boolean expected) {
        assertThat(FieldSelector.parse(selector).matches(FIELDS::get)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullAndEmptySource
    void emptySelectsEverything(String selector) {
        assertThat(FieldSelector.parse(selector).isEverything()).isTrue();
        assertThat(FieldSelector.parse(selector).matches(f -> null)).isTrue();
    }

    @Test
    void requirementsAreSortedAndDoubleEqualsNormalised() {
        FieldSelector s = FieldSelector.parse("metadata.namespace==default,metadata.name!=x");
        assertThat(s.requirements()).containsExactly(
                new FieldRequirement("metadata.name", FieldRequirement.Operator.NOT_EQUALS, "x"),
                new FieldRequirement("metadata.namespace", FieldRequirement.Operator.EQUALS, "default"));
        assertThat(s.toString()).isEqualTo("metadata.name!=x,metadata.namespace=default");
    }

    @Test
    void exactValue() {
        FieldSelector s = FieldSelector.parse("metadata.name!=y,metadata.name=x,involvedObject.uid=u");
        assertThat(s.exactValue("metadata.name")).contains("x");
        assertThat(s.exactValue("involvedObject.uid")).contains("u");
        assertThat(s.exactValue("metadata.namespace")).isEmpty();
        assertThat(FieldSelector.parse("metadata.name!=y").exactValue("metadata.name")).isEmpty();
    }

    @Test
    void kubectlDescribeEventSelector() {
        FieldSelector s = FieldSelector.parse("involvedObject.name=x,involvedObject.namespace=default,"
                + "involvedObject.kind=RayCluster,involvedObject.uid=1234");
        assertThat(s.requirements()).extracting(FieldRequirement::field).containsExactly(
                "involvedObject.kind", "involvedObject.name", "involvedObject.namespace", "involvedObject.uid");
    }

    @Test
    void escapedValuesRoundTrip() {
        FieldSelector s = FieldSelector.parse("odd=a\\,b\\=c\\\\d");
        assertThat(s.requirements()).extracting(FieldRequirement::value).isEqualTo(List.of("a,b=c\\d"));
        assertThat(s.toString()).isEqualTo("odd=a\\,b\\=c\\\\d");
        assertThat(FieldSelector.parse(s.toString())).isEqualTo(s);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "foo                    | invalid selector: 'foo'; can't understand 'foo'",
        "a=b,foo                | invalid selector: 'a=b,foo'; can't understand 'foo'",
        "a=b\\x                 | invalid field selector: invalid escape sequence: \\x",
        "a=b\\                  | invalid field selector: invalid escape sequence: \\",
        "a=b=c                  | invalid field selector: unescaped character in value: 61",
    })
    void errors(String selector, String message) {
        assertThatThrownBy(() -> FieldSelector.parse(selector))
                .isInstanceOf(SelectorParseException.class)
                .hasMessage(message);
    }
}
