package io.kuberaysim.observability.metrics;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Which format /metrics answers in, by the client's Accept header. */
class MetricsEndpointTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            -                                                                                  | false
            application/json, */*                                                              | false
            text/plain                                                                         | false
            application/openmetrics-text; version=1.0.0                                        | true
            application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1 | true
            text/plain;q=1.0, application/openmetrics-text;q=0.5                               | false
            application/*                                                                      | false
            not a media type ;;;                                                               | false
            """)
    void openMetricsOnlyWhenPreferred(String accept, boolean openMetrics) {
        assertThat(MetricsEndpoint.prefersOpenMetrics(accept)).isEqualTo(openMetrics);
    }
}
