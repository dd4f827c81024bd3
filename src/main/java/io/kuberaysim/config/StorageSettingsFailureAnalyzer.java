package io.kuberaysim.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns unusable storage settings into Spring Boot's short "APPLICATION FAILED TO START" report, no stack trace. */
final class StorageSettingsFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStorageSettingsException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidStorageSettingsException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
