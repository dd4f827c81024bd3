package io.kuberaysim.apiserver.selection;

/**
 * Renders a string the way Go's {@code %q} verb does, because the API server embeds bad values in its messages
 * that way ({@code Invalid value: "a b": ...}) and clients show the text verbatim.
 */
final class GoQuote {

    private GoQuote() {
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case 0x07 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 0x0b -> sb.append("\\v");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        sb.append(String.format("\\x%02x", cp));
                    } else if (Character.isISOControl(cp) || !Character.isDefined(cp)) {
                        sb.append(cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
                    } else {
                        sb.appendCodePoint(cp);
                    }
                }
            }
        });
        return sb.append('"').toString();
    }
}
