package io.kuberaysim.security;

import jakarta.servlet.http.HttpServletRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * The caller of a request, as kube-apiserver's authenticators describe it ({@code user.Info}).
 *
 * @param username {@code system:anonymous} for requests without credentials
 * @param uid      empty for anonymous requests
 * @param groups   authenticated users are also in {@code system:authenticated}
 */
public record UserInfo(String username, String uid, List<String> groups) {
    /** Without authentication every caller is this one. */
    public static final UserInfo ANONYMOUS = new UserInfo("system:anonymous", "", List.of("system:unauthenticated"));
    private static final String ATTRIBUTE = UserInfo.class.getName();

    public UserInfo {
        groups = List.copyOf(groups);
    }

    /** A user from a token, in {@code system:authenticated} like every authenticated user. */
    static UserInfo authenticated(String username, String uid, List<String> groups) {
        List<String> all = new ArrayList<>(groups);
        if (!all.contains("system:authenticated")) {
            all.add("system:authenticated");
        }
        return new UserInfo(username, uid, all);
    }

    /** The caller of a request the authentication filter has passed. */
    public static UserInfo of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof UserInfo u ? u : ANONYMOUS;
    }

    void attachTo(HttpServletRequest request) {
        request.setAttribute(ATTRIBUTE, this);
    }
}
