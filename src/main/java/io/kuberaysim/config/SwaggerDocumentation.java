package io.kuberaysim.config;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.Map;

/**
 * Swagger UI's view of the Kubernetes REST surface. The handlers serve every resource through generic path
 * patterns, so the concrete paths (list, create, get, replace, patch, delete, status) are described here,
 * one set per served resource, with a RayCluster example body.
 */
@Configuration(proxyBeanMethods = false)
class SwaggerDocumentation {
    static final String RAYCLUSTER_EXAMPLE = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata:
              name: demo-raycluster
            spec:
              rayVersion: "2.9.0"
              headGroupSpec:
                rayStartParams:
                  dashboard-host: "0.0.0.0"
                template:
                  spec:
                    containers:
                    - name: ray-head
                      image: rayproject/ray:2.9.0
                      resources:
                        limits: {cpu: "1", memory: "2Gi"}
              workerGroupSpecs:
              - groupName: small-wg
                replicas: 2
                minReplicas: 1
                maxReplicas: 4
                rayStartParams: {}
                template:
                  spec:
                    containers:
                    - name: ray-worker
                      image: rayproject/ray:2.9.0
                      resources:
                        limits: {cpu: "2", memory: "4Gi"}
            """;

    @Bean
    OpenApiCustomizer kubernetesPaths() {
        return openApi -> {
            openApi.info(new Info().title("kuberay-sim").version("v1.32.0")
                    .description("A Kubernetes API server with the KubeRay operator and a simulated cluster. "
                            + "Errors are metav1 Status objects; watches are ?watch=true streams."));
            Paths paths = openApi.getPaths() == null ? new Paths() : openApi.getPaths();
            for (ResourceType t : ResourceTypes.SERVED_TYPES) {
                String tag = t.apiVersion() + " " + t.kind();
                openApi.addTagsItem(new Tag().name(tag));
                String base = (t.group().isEmpty() ? "/api/v1" : "/apis/" + t.group() + "/" + t.version())
                        + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
                List<Parameter> scope = t.namespaced() ? List.of(pathParam("namespace")) : List.of();
                Operation list = op(tag, "list " + t.plural(), scope).addParametersItem(query("labelSelector"))
                        .addParametersItem(query("fieldSelector")).addParametersItem(query("limit"))
                        .addParametersItem(query("continue")).addParametersItem(query("watch"))
                        .addParametersItem(query("resourceVersion"));
                List<Parameter> named = new java.util.ArrayList<>(scope);
                named.add(pathParam("name"));
                if (ResourceTypes.isReadOnly(t)) {
                    paths.addPathItem(base, new PathItem().get(list));
                    paths.addPathItem(base + "/{name}", new PathItem().get(op(tag, "read a " + t.kind(), named)));
                    continue;
                }
                paths.addPathItem(base, new PathItem().get(list)
                        .post(op(tag, "create a " + t.kind(), scope).addParametersItem(query("dryRun"))
                                .addParametersItem(query("fieldValidation")).requestBody(body(t))));
                paths.addPathItem(base + "/{name}", new PathItem()
                        .get(op(tag, "read a " + t.kind(), named))
                        .put(op(tag, "replace a " + t.kind(), named).requestBody(body(t)))
                        .patch(op(tag, "patch a " + t.kind() + " (merge, JSON, apply"
                                + (t.isCustomResource() ? "" : ", strategic") + ")", named)
                                .requestBody(patchBody(t)))
                        .delete(op(tag, "delete a " + t.kind(), named).addParametersItem(query("propagationPolicy"))));
                if (t.statusSubresource()) {
                    paths.addPathItem(base + "/{name}/status", new PathItem()
                            .get(op(tag, "read the status of a " + t.kind(), named))
                            .put(op(tag, "replace the status of a " + t.kind(), named).requestBody(body(t)))
                            .patch(op(tag, "patch the status of a " + t.kind(), named).requestBody(patchBody(t))));
                }
            }
            openApi.setPaths(paths);
        };
    }

    private static Operation op(String tag, String summary, List<Parameter> params) {
        Operation o = new Operation().summary(summary).addTagsItem(tag);
        params.forEach(o::addParametersItem);
        ApiResponses r = new ApiResponses();
        r.addApiResponse("200", new ApiResponse().description("OK"));
        r.addApiResponse("default", new ApiResponse().description("a metav1 Status describing the failure"));
        return o.responses(r);
    }

    private static Parameter pathParam(String name) {
        return new Parameter().in("path").name(name).required(true).schema(new StringSchema());
    }

    private static Parameter query(String name) {
        return new Parameter().in("query").name(name).required(false).schema(new StringSchema());
    }

    private static RequestBody body(ResourceType t) {
        Content c = new Content();
        MediaType yaml = new MediaType().schema(new ObjectSchema());
        if (t.equals(ResourceTypes.RAYCLUSTERS)) {
            yaml.example(RAYCLUSTER_EXAMPLE);
        }
        c.addMediaType("application/yaml", yaml);
        c.addMediaType("application/json", new MediaType().schema(new ObjectSchema()));
        return new RequestBody().required(true).content(c);
    }

    private static RequestBody patchBody(ResourceType t) {
        Content c = new Content();
        MediaType merge = new MediaType().schema(new ObjectSchema());
        if (t.equals(ResourceTypes.RAYCLUSTERS)) {
            merge.example(Map.of("spec", Map.of("suspend", true)));
        }
        c.addMediaType("application/merge-patch+json", merge);
        c.addMediaType("application/json-patch+json", new MediaType().schema(new ObjectSchema()));
        c.addMediaType("application/apply-patch+yaml", new MediaType().schema(new ObjectSchema()));
        if (!t.isCustomResource()) {
            c.addMediaType("application/strategic-merge-patch+json", new MediaType().schema(new ObjectSchema()));
        }
        return new RequestBody().required(true).content(c);
    }
}
