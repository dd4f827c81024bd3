package io.kuberaysim.apiserver.validation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static io.kuberaysim.apiserver.validation.GoTimeParse.RFC3339;
import static io.kuberaysim.apiserver.validation.GoTimeParse.RFC3339_MICRO;
import static org.assertj.core.api.Assertions.assertThat;

/** Go's time.Parse in kube's time layouts: what it accepts, and its error in its words when it does not. */
class GoTimeParseTest {

    @ParameterizedTest
    @ValueSource(strings = {"2025-01-01T00:00:00.000000Z", "2026-12-02T22:13:44.231332Z",
            "2025-01-01T00:00:00.123456+01:00", "2025-01-01T00:00:00.000000-07:30", "2024-02-29T23:59:59.999999Z",
            "2025-01-01T1:00:00.000000Z"})
    void microTimesThatParse(String value) {
        assertThat(GoTimeParse.error(value, RFC3339_MICRO)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-01-01T00:00:00Z", "2025-01-01T00:00:00.123Z", "2025-01-01T00:00:00+02:00"})
    void timesThatParse(String value) {
        assertThat(GoTimeParse.error(value, RFC3339)).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            2026-08-11T19:37:19.103Z          | cannot parse ".103Z" as ".000000"
            2025-01-01T00:00:00Z              | cannot parse "Z" as ".000000"
            yesterday                         | cannot parse "yesterday" as "2006"
            2025-01-01 00:00:00.000000Z       | cannot parse " 00:00:00.000000Z" as "T"
            2025-1-01T00:00:00.000000Z        | cannot parse "1-01T00:00:00.000000Z" as "01"
            2025-01-01T00:00:00.1234567Z      | cannot parse "7Z" as "Z07:00"
            2025-01-01T00:00:00.000000        | cannot parse "" as "Z07:00"
            2025-01-01T00:00:00.000000+0100   | cannot parse "+0100" as "Z07:00"
            """)
    void microTimesThatDoNotParse(String value, String cannotParse) {
        assertThat(GoTimeParse.error(value, RFC3339_MICRO)).isEqualTo(
                "parsing time \"" + value + "\" as \"2006-01-02T15:04:05.000000Z07:00\": " + cannotParse);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            2025-13-01T00:00:00.000000Z      | month out of range
            2025-02-29T00:00:00.000000Z      | day out of range
            2025-01-01T24:00:00.000000Z      | hour out of range
            2025-01-01T00:60:00.000000Z      | minute out of range
            2025-01-01T00:00:60.000000Z      | second out of range
            2025-01-01T00:00:00.000000+25:00 | time zone offset hour out of range
            """)
    void outOfRange(String value, String message) {
        assertThat(GoTimeParse.error(value, RFC3339_MICRO)).isEqualTo("parsing time \"" + value + "\": " + message);
    }

    @Test
    void extraTextAndUnprintableCharacters() {
        assertThat(GoTimeParse.error("2025-01-01T00:00:00.000000Zjunk", RFC3339_MICRO))
                .isEqualTo("parsing time \"2025-01-01T00:00:00.000000Zjunk\": extra text: \"junk\"");
        assertThat(GoTimeParse.error("ü\"", RFC3339_MICRO))
                .isEqualTo("parsing time \"\\xc3\\xbc\\\"\" as \"2006-01-02T15:04:05.000000Z07:00\": "
                        + "cannot parse \"\\xc3\\xbc\\\"\" as \"2006\"");
    }
}
