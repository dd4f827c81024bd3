package io.kuberaysim.security;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;

import java.util.Map;

/**
 * Swagger UI's view of this package: the self-subject review paths, and with authentication on a bearer-token
 * scheme, so the page's Authorize button sends the token with every "Try it out".
 */
final class SecurityDocumentation implements OpenApiCustomizer {
    private static final String SCHEME = "bearerToken";
    private static final Map<ResourceType, String> EXAMPLES = Map.of(
            ResourceTypes.SELF_SUBJECT_ACCESS_REVIEWS, """
                    {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
                     "spec": {"resourceAttributes": {"namespace": "default", "verb": "create", "group": "ray.io",
                                                     "resource": "rayclusters"}}}""",
            ResourceTypes.SELF_SUBJECT_RULES_REVIEWS, """
                    {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
                     "spec": {"namespace": "default"}}""",
            ResourceTypes.SELF_SUBJECT_REVIEWS, """
                    {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}""");

    private final boolean authentication;

    SecurityDocumentation(boolean authentication) {
        this.authentication = authentication;
    }

    @Override
    public void customise(io.swagger.v3.oas.models.OpenAPI openApi) {
        for (ResourceType t : ResourceTypes.REVIEW_TYPES) {
            String tag = t.apiVersion() + " " + t.kind();
            Operation create = new Operation().summary("create a " + t.kind() + " (kubectl auth "
                            + (t == ResourceTypes.SELF_SUBJECT_REVIEWS ? "whoami" : "can-i") + "): nothing is stored")
                    .addTagsItem(tag)
                    .requestBody(new RequestBody().required(true).content(new Content().addMediaType("application/json",
                            new MediaType().schema(new ObjectSchema()).example(EXAMPLES.get(t)))))
                    .responses(new ApiResponses()
                            .addApiResponse("201", new ApiResponse().description("the review with its status"))
                            .addApiResponse("default", new ApiResponse().description("a metav1 Status")));
            openApi.path("/apis/" + t.group() + "/" + t.version() + "/" + t.plural(), new PathItem().post(create));
        }
        if (authentication) {
            if (openApi.getComponents() == null) {
                openApi.components(new Components());
            }
            openApi.getComponents().addSecuritySchemes(SCHEME, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                    .scheme("bearer").description("the token of kuberay-sim.auth.token or of the token file"));
            openApi.addSecurityItem(new SecurityRequirement().addList(SCHEME));
        }
    }
}
