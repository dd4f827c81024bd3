package io.kuberaysim.apiserver.selection;

/**
 * A label or field selector string could not be parsed or failed validation. The message follows the wording of
 * the real API server (apimachinery's selector parsers) so it can be returned verbatim in a 400 BadRequest Status.
 */
public class SelectorParseException extends IllegalArgumentException {

    /** Creates the exception with the apimachinery-style message. */
    public SelectorParseException(String message) {
        super(message);
    }
}
