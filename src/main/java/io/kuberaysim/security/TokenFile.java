package io.kuberaysim.security;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvReadFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-apiserver's static token file ({@code --token-auth-file}): CSV records {@code token,user,uid[,"g1,g2"]}, one
 * per line; blank lines are skipped. Unlike kube-apiserver, which skips records with an empty token with a warning, every malformed record
 * stops the start: a token file that silently lets nobody in is worse than a clear error.
 */
final class TokenFile {
    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvReadFeature.WRAP_AS_ARRAY)
            .enable(CsvReadFeature.SKIP_EMPTY_LINES)
            .enable(CsvReadFeature.TRIM_SPACES)
            .build();

    private TokenFile() {
    }

    /** Token to user, in file order; throws {@link InvalidSecuritySettingsException} naming the line at fault. */
    static Map<String, UserInfo> read(Path path) {
        String where = "kuberay-sim.auth.token-file " + path;
        String fix = "Write one record per line: token,user name,user uid[,\"group1,group2\"] "
                + "(the format of kube-apiserver's --token-auth-file).";
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new InvalidSecuritySettingsException(where + " is not a readable file.",
                    "Point kuberay-sim.auth.token-file at an existing token file, or use kuberay-sim.auth.token.");
        }
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new InvalidSecuritySettingsException(where + " cannot be read: " + e.getMessage(),
                    "Point kuberay-sim.auth.token-file at a readable UTF-8 token file.");
        }
        Map<String, UserInfo> tokens = new LinkedHashMap<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            int line = i + 1;
            List<String> fields = fields(lines[i], where + ": line " + line, fix);
            if (fields.size() < 3) {
                throw new InvalidSecuritySettingsException(where + ": line " + line + " has " + fields.size()
                        + (fields.size() == 1 ? " column" : " columns")
                        + ", at least 3 are needed (token, user name, user uid).", fix);
            }
            String token = fields.get(0);
            if (token.isEmpty() || token.chars().anyMatch(Character::isWhitespace)) {
                throw new InvalidSecuritySettingsException(where + ": line " + line + " has "
                        + (token.isEmpty() ? "an empty token." : "a token with white space in it."), fix);
            }
            if (fields.get(1).isEmpty()) {
                throw new InvalidSecuritySettingsException(where + ": line " + line + " has an empty user name.",
                        fix);
            }
            if (tokens.containsKey(token)) {
                throw new InvalidSecuritySettingsException(where + ": line " + line
                        + " repeats the token of an earlier line.", "Give every user a different token.");
            }
            List<String> groups = fields.size() > 3 && !fields.get(3).isEmpty()
                    ? Arrays.stream(fields.get(3).split(",")).map(String::trim).filter(g -> !g.isEmpty()).toList()
                    : List.of();
            tokens.put(token, UserInfo.authenticated(fields.get(1), fields.get(2), groups));
        }
        if (tokens.isEmpty()) {
            throw new InvalidSecuritySettingsException(where + " holds no token.", fix);
        }
        return tokens;
    }

    /** One record: the token file has one per line, so a line is parsed on its own and errors can name it. */
    private static List<String> fields(String line, String where, String fix) {
        try (MappingIterator<String[]> rows = CSV.readerFor(String[].class).readValues(line)) {
            return rows.hasNextValue() ? Arrays.asList(rows.nextValue()) : List.of();
        } catch (JacksonException e) {
            throw new InvalidSecuritySettingsException(where + " is not valid CSV: " + e.getOriginalMessage(), fix);
        }
    }
}
