package io.kuberaysim.apiserver.validation;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Quantities as apimachinery's ParseQuantity accepts and refuses them. */
class QuantityFormatTest {

    @ParameterizedTest
    @ValueSource(strings = {"1", "500m", "1.5", ".5", "1.", "-1", "+2", "1Gi", "64Mi", "2Ei", "3k", "100n", "1e3",
            "1E-2", "12345678901234567890"})
    void wellFormed(String q) {
        assertThat(QuantityFormat.error(q)).isNull();
        assertThat(QuantityFormat.matchesCrdPattern(q)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"many", "", " ", "1 Gi", "Gi", "1.2.3", ".", "--1", "0x10", "1,5"})
    void malformed(String q) {
        assertThat(QuantityFormat.error(q)).isEqualTo(QuantityFormat.FORMAT_ERROR);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1K", "1Ki1", "1mi", "1e", "1kk"})
    void unknownSuffix(String q) {
        assertThat(QuantityFormat.error(q)).isEqualTo(QuantityFormat.SUFFIX_ERROR);
    }
}
