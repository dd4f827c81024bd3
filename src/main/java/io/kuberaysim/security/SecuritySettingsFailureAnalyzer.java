package io.kuberaysim.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns unusable security settings into Spring Boot's short "APPLICATION FAILED TO START" report, no stack trace. */
final class SecuritySettingsFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSecuritySettingsException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSecuritySettingsException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
