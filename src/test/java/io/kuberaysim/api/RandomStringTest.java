package io.kuberaysim.api;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins k8s.io/apimachinery/pkg/util/rand.String, which KubeRay's utils/util.go GenerateRayClusterName uses. */
class RandomStringTest {

    @Test
    void drawsOnlyFromKubernetesAlphabetAndRepeatsForTheSameSeed() {
        Set<Character> seen = new HashSet<>();
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            String s = RandomString.of(5, random);
            assertThat(s).hasSize(5).matches("[bcdfghjklmnpqrstvwxz2456789]{5}");
            s.chars().forEach(c -> seen.add((char) c));
        }
        assertThat(seen).hasSize(RandomString.ALPHABET.length());
        assertThat(RandomString.of(5, new Random(1))).isEqualTo(RandomString.of(5, new Random(1)));
    }

    @Test
    void noVowelsYOrLookAlikeDigits() {
        assertThat(RandomString.ALPHABET).doesNotContainPattern("[aeiouy013]");
        assertThat(RandomString.charFor(-1)).isEqualTo('9');
    }
}
