package io.kuberaysim.apiserver.http;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WarningHeadersTest {

    @Test
    @DisplayName("duplicates are dropped; quotes and backslashes are escaped")
    void dedupeAndEscape() {
        assertThat(WarningHeaders.KUBE.values(List.of("a", "say \"hi\\\"", "a", "")))
                .containsExactly("299 - \"a\"", "299 - \"say \\\"hi\\\\\\\"\"");
    }

    @Test
    @DisplayName("texts with control characters are not sent (kube-apiserver refuses them too)")
    void controlCharacters() {
        assertThat(WarningHeaders.KUBE.values(List.of("line\nbreak", "tab\there", "ok"))).containsExactly("299 - \"ok\"");
    }

    @Test
    @DisplayName("non-ASCII text goes out as UTF-8 bytes")
    void utf8() {
        String header = WarningHeaders.KUBE.values(List.of("Iñtërnâtiôn")).get(0);
        assertThat(new String(header.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8))
                .isEqualTo("299 - \"Iñtërnâtiôn\"");
    }

    @Test
    @DisplayName("past the total budget every warning is cut to the item limit and the rest left out, as kube-apiserver")
    void truncation() {
        // kube-apiserver's own case, with a budget of 25 characters and items cut to 5
        WarningHeaders small = new WarningHeaders(25, 5);
        List<String> warnings = List.of("aaaaaaaaaa", "aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô");
        assertThat(small.values(warnings)).containsExactly("299 - \"aaaaaaaaaa\"", "299 - \"bb\"", "299 - \"ccc\"",
                WarningHeaders.header("Iñtërnâtiô"));
        List<String> more = new ArrayList<>(warnings);
        more.addAll(List.of("e", "ffffffffff", "ffffffffff", "gggggggggg", "h"));
        assertThat(small.values(more)).containsExactly("299 - \"aaaaa\"", "299 - \"bb\"", "299 - \"ccc\"",
                WarningHeaders.header("Iñtër"), "299 - \"e\"", "299 - \"fffff\"", "299 - \"ggggg\"");
    }

    @Test
    @DisplayName("600 unknown-field warnings give a bounded header set")
    void manyWarnings() {
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            warnings.add("unknown field \"spec.field" + i + "\"");
        }
        List<String> headers = WarningHeaders.KUBE.values(warnings);
        int chars = headers.stream().mapToInt(String::length).sum();
        assertThat(headers).hasSizeLessThan(200).first().isEqualTo("299 - \"unknown field \\\"spec.field0\\\"\"");
        assertThat(chars).isLessThan(8 * 1024);
    }
}
