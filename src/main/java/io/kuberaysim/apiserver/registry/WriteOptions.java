package io.kuberaysim.apiserver.registry;

/** Options of create, update and patch: {@code dryRun=All}, {@code fieldValidation}, {@code fieldManager}, {@code force}. */
public record WriteOptions(boolean dryRun, FieldValidation fieldValidation, String fieldManager, Boolean force) {
    public static final WriteOptions DEFAULT = new WriteOptions(false, FieldValidation.WARN, null, null);

    /** These options written by {@code manager} (who then owns the fields it sets, in metadata.managedFields). */
    public WriteOptions withFieldManager(String manager) {
        return new WriteOptions(dryRun, fieldValidation, manager, force);
    }

    /** What to do with fields the schema does not know. Server default is Warn, as kube-apiserver since 1.27. */
    public enum FieldValidation { STRICT, WARN, IGNORE }
}
