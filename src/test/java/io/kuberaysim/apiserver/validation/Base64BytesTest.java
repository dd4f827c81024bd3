package io.kuberaysim.apiserver.validation;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Go's {@code base64.StdEncoding.Decode} verdicts, which a Secret's data and a ConfigMap's binaryData get. */
class Base64BytesTest {

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(delimiter = '|', value = {
            "YWJj|-1|3",
            "YWI=|-1|2",
            "YQ==|-1|1",
            "''|-1|0",
            "YW\\nJj|-1|3",
            "YWJ|0|",
            "YWJjZA|4|",
            "YW!j|2|",
            "hello world|5|",
            "YQ=|3|",
            "YQ==YQ==|4|",
            "Y===|1|",
            "=|0|",
            "YWJj\\r\\n|-1|3",
    })
    void decodesAsGoDoes(String input, int corruptAt, Integer length) {
        String value = input.replace("\\n", "\n").replace("\\r", "\r");
        assertThat(Base64Bytes.corruptAt(value.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isEqualTo(corruptAt);
        if (corruptAt < 0) {
            assertThat(Base64Bytes.error(value)).isEmpty();
            assertThat(Base64Bytes.decodedLength(value)).isEqualTo(length);
        } else {
            assertThat(Base64Bytes.error(value)).contains("illegal base64 data at input byte " + corruptAt);
        }
    }
}
