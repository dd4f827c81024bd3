package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * Addresses of the head Pod and head Service.
 *
 * @param podIP       IP of the head Pod
 * @param podName     name of the head Pod
 * @param serviceIP   cluster IP of the head Service (the head Pod IP when the Service is headless)
 * @param serviceName name of the head Service
 */
@Description("Addresses of the head Pod and of the head Service.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeadInfo(
        @Description("IP address of the head Pod.")
        String podIP,
        @Description("Name of the head Pod.")
        String podName,
        @Description("IP address of the head Service; the head Pod IP when the Service is headless.")
        String serviceIP,
        @Description("Name of the head Service.")
        String serviceName) {
}
