package io.kuberaysim.apiserver.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kuberaysim.apiserver.selection.Requirement.Operator;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorTest {

    private static final Map<String, String> LABELS =
            Map.of("app", "demo", "ray.io/cluster", "rc", "ray.io/node-type", "worker", "tier", "", "n", "5");

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "app=demo                              | true",
        "app==demo                             | true",
        "app=other                             | false",
        "app!=other                            | true",
        "app!=demo                             | false",
        "missing!=x                            | true",
        "ray.io/cluster=rc                     | true",
        "ray.io/node-type in (head,worker)     | true",
        "ray.io/node-type in (head)            | false",
        "ray.io/node-type notin (head)         | true",
        "ray.io/node-type notin (worker,head)  | false",
        "missing notin (a)                     | true",
        "missing in (a)                        | false",
        "app                                   | true",
        "missing                               | false",
        "!missing                              | true",
        "!app                                  | false",
        "tier=                                 | true",
        "tier in ()                            | true",
        "app=demo,ray.io/cluster=rc            | true",
        "app=demo,ray.io/cluster=other         | false",
        "'  app = demo ,  ray.io/cluster in ( rc , x )  ' | true",
        "n>4                                   | true",
        "n<5                                   | false",
        "app>4                                 | false",
        "x in (in)                             | false",
    })
    void matches(String selector, boolean expected) {
        assertThat(LabelSelector.parse(selector).matches(LABELS)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void emptySelectsEverything(String selector) {
        LabelSelector s = LabelSelector.parse(selector);
        assertThat(s.isEverything()).isTrue();
        assertThat(s.matches(null)).isTrue();
        assertThat(s.toString()).isEmpty();
    }

    @Test
    void documentedExample() {
        LabelSelector s = LabelSelector.parse("x in (foo,,baz),y,z notin ()");
        assertThat(s.toString()).isEqualTo("x in (,baz,foo),y,z notin ()");
        assertThat(s.matches(Map.of("x", "", "y", "1"))).isTrue();
        assertThat(s.matches(Map.of("x", "foo", "y", "1", "z", ""))).isFalse();
        assertThat(s.matches(Map.of("x", "bar", "y", "1"))).isFalse();
    }

    @Test
    void nullLabelsAreEmpty() {
        assertThat(LabelSelector.parse("!a").matches(null)).isTrue();
        assertThat(LabelSelector.parse("a").matches(null)).isFalse();
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "b=1,a=2                   | a=2,b=1",
        "x in (b, a, b)            | x in (a,b)",
        "x notin (b,a)             | x notin (a,b)",
        "'!a , b'                  | !a,b",
        "a==1                      | a==1",
        "a != 1                    | a!=1",
        "x in (,a)                 | x in (,a)",
        "n > 3                     | n>3",
    })
    void canonicalString(String selector, String canonical) {
        assertThat(LabelSelector.parse(selector).toString()).isEqualTo(canonical);
        assertThat(LabelSelector.parse(canonical)).isEqualTo(LabelSelector.parse(selector));
    }

    @Test
    void requirementsAreSortedByKey() {
        assertThat(LabelSelector.parse("z=1,a in (x,y),!m").requirements()).containsExactly(
                new Requirement("a", Operator.IN, List.of("x", "y")),
                new Requirement("m", Operator.DOES_NOT_EXIST, List.of()),
                new Requirement("z", Operator.EQUALS, List.of("1")));
    }

    @Test
    void exactMatchesCoverEqualityAndSingleValueIn() {
        assertThat(LabelSelector.parse("a=1,b==2,c in (3),d in (4,5),e!=6,f").exactMatches())
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2", "c", "3"));
    }

    @Test
    void ofMatchLabels() {
        LabelSelector s = LabelSelector.of(Map.of("ray.io/cluster", "rc", "app", "demo"));
        assertThat(s.toString()).isEqualTo("app=demo,ray.io/cluster=rc");
        assertThat(s.matches(LABELS)).isTrue();
        assertThat(s.exactMatches()).containsEntry("app", "demo").containsEntry("ray.io/cluster", "rc");
        assertThat(LabelSelector.of(Map.of()).isEverything()).isTrue();
        assertThat(LabelSelector.of(null).isEverything()).isTrue();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "a=b c           | found 'c', expected: ',' or 'end of string'",
        "a=b,            | found '', expected: identifier after ','",
        ",a              | found ',', expected: !, identifier, or 'end of string'",
        "a in b          | unable to parse requirement: found 'b' expected: '('",
        "a in (b         | unable to parse requirement: found '', expected: ',' or ')'",
        "a in (=)        | unable to parse requirement: found '=', expected: ',', ')' or identifier",
        "a foo b         | unable to parse requirement: found 'foo', expected: in, notin, =, ==, !=, gt, lt",
        "a=(             | unable to parse requirement: found '(', expected: identifier",
        "!               | unable to parse requirement: found '', expected: identifier",
        "!a=b            | found '=', expected: ',' or 'end of string'",
        "a=b=c           | found '=', expected: ',' or 'end of string'",
        "a>x             | unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
    })
    void syntaxErrors(String selector, String message) {
        assertThatThrownBy(() -> LabelSelector.parse(selector))
                .isInstanceOf(SelectorParseException.class)
                .hasMessage(message);
    }

    @Test
    void invalidKeyMessageMatchesApiserver() {
        assertThatThrownBy(() -> LabelSelector.parse("-bad=x"))
                .isInstanceOf(SelectorParseException.class)
                .hasMessage("unable to parse requirement: <nil>: Invalid value: \"-bad\": name part must consist of "
                        + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                        + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
        assertThatThrownBy(() -> LabelSelector.parse("Ray.IO/x=1"))
                .hasMessageStartingWith("unable to parse requirement: <nil>: Invalid value: \"Ray.IO/x\": prefix part "
                        + "a lowercase RFC 1123 subdomain must consist of");
    }

    @Test
    void invalidValueMessageMatchesApiserver() {
        assertThatThrownBy(() -> LabelSelector.parse("app=a b"))
                .hasMessage("found 'b', expected: ',' or 'end of string'");
        assertThatThrownBy(() -> LabelSelector.parse("app=-x"))
                .hasMessage("unable to parse requirement: values[0][app]: Invalid value: \"-x\": a valid label must "
                        + "be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
                        + "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex "
                        + "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
        assertThatThrownBy(() -> LabelSelector.parse("app in (-x,_y)"))
                .hasMessageStartingWith("unable to parse requirement: [values[0][app]: Invalid value: \"-x\": ")
                .hasMessageContaining(", values[1][app]: Invalid value: \"_y\": ")
                .hasMessageEndingWith("]");
        assertThatThrownBy(() -> LabelSelector.parse("app=" + "v".repeat(64)))
                .hasMessageContaining(": must be no more than 63 characters");
    }
}
