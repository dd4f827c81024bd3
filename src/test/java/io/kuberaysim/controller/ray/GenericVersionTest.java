package io.kuberaysim.controller.ray;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pins k8s.io/apimachinery/pkg/util/version ParseGeneric as KubeRay's utils/validation.go uses it on rayVersion. */
class GenericVersionTest {

    @Test
    void comparesLikeParseGeneric() throws Exception {
        assertThat(GenericVersion.parse("2.52.0").lessThan(GenericVersion.of("2.52.0"))).isFalse();
        assertThat(GenericVersion.parse("2.9.0").lessThan(GenericVersion.of("2.52.0"))).isTrue();
        assertThat(GenericVersion.parse("v2.56").lessThan(GenericVersion.of("2.56.0"))).isFalse();
        assertThat(GenericVersion.parse("2.56.0rc1").lessThan(GenericVersion.of("2.56.0"))).isFalse();
        assertThat(GenericVersion.parse("3.0.0-nightly")).isEqualTo(GenericVersion.of("3.0"));
    }

    @Test
    void rejectsWithApimachineryMessages() {
        assertThatThrownBy(() -> GenericVersion.parse("latest")).hasMessage("could not parse \"latest\" as version");
        assertThatThrownBy(() -> GenericVersion.parse("2")).hasMessage("illegal version string \"2\"");
        assertThatThrownBy(() -> GenericVersion.parse("02.1")).hasMessage(
                "illegal zero-prefixed version component \"02\" in \"02.1\"");
    }
}
