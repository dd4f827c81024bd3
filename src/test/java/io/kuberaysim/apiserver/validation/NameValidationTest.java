package io.kuberaysim.apiserver.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NameValidationTest {

    private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or "
            + "'-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    private static final String QNAME_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and "
            + "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
            + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
            + "or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    static Stream<Arguments> cases() {
        Function<String, List<String>> sub = NameValidation::isDns1123Subdomain;
        Function<String, List<String>> lbl = NameValidation::isDns1123Label;
        Function<String, List<String>> l1035 = NameValidation::isDns1035Label;
        Function<String, List<String>> qn = NameValidation::isQualifiedName;
        Function<String, List<String>> val = NameValidation::isValidLabelValue;
        return Stream.of(
                Arguments.of("subdomain ok", sub, "raycluster-sample.head-0", List.of()),
                Arguments.of("subdomain upper", sub, "Bad", List.of(SUBDOMAIN_MSG)),
                Arguments.of("subdomain trailing dash", sub, "bad-", List.of(SUBDOMAIN_MSG)),
                Arguments.of("subdomain empty", sub, "", List.of(SUBDOMAIN_MSG)),
                Arguments.of("subdomain 253 ok", sub, "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63)
                        + "." + "d".repeat(61), List.of()),
                Arguments.of("subdomain 254", sub, "a".repeat(254),
                        List.of("must be no more than 253 characters")),
                Arguments.of("label ok", lbl, "default", List.of()),
                Arguments.of("label dots", lbl, "a.b", List.of("must not contain dots")),
                Arguments.of("label underscore", lbl, "a_b", List.of(LABEL_MSG)),
                Arguments.of("label 64", lbl, "a".repeat(64), List.of("must be no more than 63 characters")),
                Arguments.of("1035 ok", l1035, "my-svc", List.of()),
                Arguments.of("1035 digit first", l1035, "1svc", List.of(DNS1035_MSG)),
                Arguments.of("1035 64 and bad", l1035, "1" + "a".repeat(63),
                        List.of("must be no more than 63 characters", DNS1035_MSG)),
                Arguments.of("qname ok", qn, "ray.io/node-type", List.of()),
                Arguments.of("qname plain", qn, "App_Name.v1", List.of()),
                Arguments.of("qname empty prefix", qn, "/x", List.of("prefix part must be non-empty")),
                Arguments.of("qname bad prefix", qn, "Ray.io/x", List.of("prefix part " + SUBDOMAIN_MSG)),
                Arguments.of("qname empty name", qn, "ray.io/", List.of("name part must be non-empty", QNAME_MSG)),
                Arguments.of("qname empty", qn, "", List.of("name part must be non-empty", QNAME_MSG)),
                Arguments.of("qname long name", qn, "a".repeat(64), List.of("name part must be no more than 63 characters")),
                Arguments.of("qname two slashes", qn, "a/b/c", List.of("a qualified name must consist of alphanumeric "
                        + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                        + "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
                        + "(e.g. 'example.com/MyName')")),
                Arguments.of("value empty ok", val, "", List.of()),
                Arguments.of("value ok", val, "My_Value-1.2", List.of()),
                Arguments.of("value bad", val, "-x", List.of(VALUE_MSG)),
                Arguments.of("value 64", val, "v".repeat(64), List.of("must be no more than 63 characters")),
                Arguments.of("value multibyte counts bytes", val, "é".repeat(32),
                        List.of("must be no more than 63 characters", VALUE_MSG)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void checks(String name, Function<String, List<String>> check, String value, List<String> expected) {
        assertThat(check.apply(value)).containsExactlyElementsOf(expected);
    }

    @Test
    void generateNamePrefixMayEndWithDash() {
        assertThat(NameValidation.nameIsDnsSubdomain("raycluster-", true)).isEmpty();
        assertThat(NameValidation.nameIsDnsSubdomain("raycluster-", false)).containsExactly(SUBDOMAIN_MSG);
        assertThat(NameValidation.nameIsDnsLabel("ns-", true)).isEmpty();
        assertThat(NameValidation.nameIsDns1035Label("svc-", true)).isEmpty();
        assertThat(NameValidation.nameIsDnsSubdomain("Bad-", true)).containsExactly(SUBDOMAIN_MSG);
        // quirk of the real mask: two characters are replaced by one 'a'
        assertThat(NameValidation.maskTrailingDash("ab-")).isEqualTo("aa");
        assertThat(NameValidation.maskTrailingDash("-")).isEqualTo("-");
    }

    @Test
    void generatedNamesAreValidNames() {
        java.util.Random random = new java.util.Random(42);
        String name = NameValidation.generateName("raycluster-sample-", random);
        assertThat(name).matches("raycluster-sample-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(NameValidation.isDns1123Subdomain(name)).isEmpty();
        String longName = NameValidation.generateName("p".repeat(80) + "-", random);
        assertThat(longName).hasSize(63).startsWith("p".repeat(58));
        assertThat(NameValidation.isDns1123Label(longName)).isEmpty();
    }

    @Test
    void annotationsSize() {
        Map<String, String> ok = Map.of("k", "v".repeat(256 * 1024 - 1));
        assertThat(NameValidation.validateAnnotationsSize(ok)).isEmpty();
        Map<String, String> big = new HashMap<>(ok);
        big.put("x", "");
        assertThat(NameValidation.validateAnnotationsSize(big))
                .containsExactly("annotations size 262145 is larger than limit 262144");
        assertThat(NameValidation.validateAnnotationsSize(null)).isEmpty();
        assertThat(NameValidation.annotationsTooLongDetail()).isEqualTo("may not be more than 262144 bytes");
    }

    @Test
    void annotationKeysAreCaseInsensitive() {
        assertThat(NameValidation.validateAnnotationKeys(Map.of("Example.COM/Key", "v"))).isEmpty();
        assertThat(NameValidation.validateAnnotationKeys(Map.of("bad key", "v")))
                .extracting(Map.Entry::getKey).containsExactly("bad key");
    }

    @Test
    void writtenOutMatchersAgreeWithTheRegularExpressionsOnEveryShortString() {
        java.util.regex.Pattern subdomain = java.util.regex.Pattern.compile(
                "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
        java.util.regex.Pattern labelValue = java.util.regex.Pattern.compile(
                "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
        char[] alphabet = {'a', 'z', 'Q', '0', '9', '-', '.', '_', '/', ' ', '\u00e9'};
        List<String> strings = new java.util.ArrayList<>(List.of(""));
        for (int length = 1, from = 0; length <= 5; length++) {
            int to = strings.size();
            for (int i = from; i < to; i++) {
                for (char c : alphabet) {
                    strings.add(strings.get(i) + c);
                }
            }
            from = to;
        }
        int checked = 0;
        for (String s : strings) {
            assertThat(NameValidation.isDns1123SubdomainText(s)).as(s).isEqualTo(subdomain.matcher(s).matches());
            assertThat(NameValidation.isLabelValueText(s)).as(s).isEqualTo(labelValue.matcher(s).matches());
            checked++;
        }
        assertThat(checked).isGreaterThan(170_000);
        assertThat(NameValidation.isDns1123Subdomain("c-12-3-4567.example.com")).isEmpty();
        assertThat(NameValidation.isValidLabelValue("s123")).isEmpty();
    }
}
