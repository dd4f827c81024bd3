package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.http.TableConverter.Column;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The columns kubectl's built-in printers show for the core kinds this server serves. */
final class BuiltinColumns {
    private static final String NONE = "<none>";

    private BuiltinColumns() {
    }

    static final List<Column> PODS = List.of(
            Column.of("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.",
                    (o, now) -> readyContainers(o) + "/" + size(Json.at(o, "spec", "containers"))),
            Column.of("Status", "string", "The aggregate status of the containers in this pod.",
                    (o, now) -> podStatus(o)),
            Column.of("Restarts", "string", "The number of times the containers in this pod have been restarted.",
                    BuiltinColumns::restarts),
            TableConverter.age("Age"),
            Column.of("IP", "string", "IP address allocated to the pod.",
                    (o, now) -> orNone(Json.text(o, "status", "podIP"))).wide(),
            Column.of("Node", "string", "Name of the Node this pod is assigned to.",
                    (o, now) -> orNone(Json.text(o, "spec", "nodeName"))).wide(),
            Column.of("Nominated Node", "string", "Name of the node nominated for this pod.",
                    (o, now) -> orNone(Json.text(o, "status", "nominatedNodeName"))).wide(),
            Column.of("Readiness Gates", "string", "Pod readiness gates.",
                    (o, now) -> readinessGates(o)).wide());

    static final List<Column> SERVICES = List.of(
            Column.of("Type", "string", "The type of the service.", (o, now) -> {
                String t = Json.text(o, "spec", "type");
                return t == null ? "ClusterIP" : t;
            }),
            Column.of("Cluster-IP", "string", "The cluster IP of the service.",
                    (o, now) -> orNone(Json.text(o, "spec", "clusterIP"))),
            Column.of("External-IP", "string", "The external IP of the service.", (o, now) -> externalIps(o)),
            Column.of("Port(s)", "string", "The ports of the service.", (o, now) -> servicePorts(o)),
            TableConverter.age("Age"),
            Column.of("Selector", "string", "The label selector of the service.",
                    (o, now) -> labelsText(Json.at(o, "spec", "selector"))).wide());

    static final List<Column> JOBS = List.of(
            Column.of("Status", "string", "Status of the job.", (o, now) -> jobStatus(o)),
            Column.of("Completions", "string", "The completion status of the job.", (o, now) -> {
                JsonNode c = Json.at(o, "spec", "completions");
                long succeeded = longAt(o, "status", "succeeded");
                if (c != null && c.canConvertToLong()) {
                    return succeeded + "/" + c.asLong();
                }
                JsonNode p = Json.at(o, "spec", "parallelism");
                long parallelism = p != null && p.canConvertToLong() ? p.asLong() : 1;
                return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
            }),
            Column.of("Duration", "string", "Time required to complete the job.", (o, now) -> {
                Instant start = instant(Json.text(o, "status", "startTime"));
                if (start == null) {
                    return "";
                }
                Instant end = instant(Json.text(o, "status", "completionTime"));
                return HumanDuration.human(Duration.between(start, end == null ? now : end));
            }),
            TableConverter.age("Age"),
            Column.of("Containers", "string", "Names of each container in the template.",
                    (o, now) -> containerField(o, "name")).wide(),
            Column.of("Images", "string", "Images referenced by each container in the template.",
                    (o, now) -> containerField(o, "image")).wide(),
            Column.of("Selector", "string", "Selector of the job.",
                    (o, now) -> labelsText(Json.at(o, "spec", "selector", "matchLabels"))).wide());

    static final List<Column> NODES = List.of(
            Column.of("Status", "string", "The status of the node.", (o, now) -> nodeStatus(o)),
            Column.of("Roles", "string", "The roles of the node.", (o, now) -> nodeRoles(o)),
            TableConverter.age("Age"),
            Column.of("Version", "string", "Kubelet Version reported by the node.",
                    (o, now) -> orEmpty(Json.text(o, "status", "nodeInfo", "kubeletVersion"))),
            Column.of("Internal-IP", "string", "The node's internal IP.", (o, now) -> nodeAddress(o, "InternalIP"))
                    .wide(),
            Column.of("External-IP", "string", "The node's external IP.", (o, now) -> nodeAddress(o, "ExternalIP"))
                    .wide());

    static final List<Column> EVENTS = List.of(
            Column.of("Last Seen", "string", "Time since the most recent occurrence.", (o, now) -> {
                // kubectl's printEvent: the series' last observation, else lastTimestamp, else the first seen
                String t = firstText(o, new String[] {"series", "lastObservedTime"}, new String[] {"lastTimestamp"},
                        new String[] {"firstTimestamp"}, new String[] {"eventTime"},
                        new String[] {"metadata", "creationTimestamp"});
                return HumanDuration.since(t, now);
            }),
            Column.of("Type", "string", "Type of this event (Normal, Warning).",
                    (o, now) -> orEmpty(Json.text(o, "type"))),
            Column.of("Reason", "string", "Why the action was taken.", (o, now) -> orEmpty(Json.text(o, "reason"))),
            Column.of("Object", "string", "The object this event is about.", (o, now) ->
                    orEmpty(Json.text(o, "involvedObject", "kind")).toLowerCase() + "/"
                            + orEmpty(Json.text(o, "involvedObject", "name"))),
            Column.of("Subobject", "string", "Field of the object this event is about.",
                    (o, now) -> orEmpty(Json.text(o, "involvedObject", "fieldPath"))).wide(),
            Column.of("Source", "string", "The component reporting this event.", (o, now) -> {
                // kubectl's formatEventSource: component (or reportingController), then host (or reportingInstance)
                String component = orEmpty(firstText(o, new String[] {"source", "component"},
                        new String[] {"reportingComponent"}));
                String instance = orEmpty(firstText(o, new String[] {"source", "host"},
                        new String[] {"reportingInstance"}));
                return instance.isEmpty() ? component : component + ", " + instance;
            }).wide(),
            Column.of("Message", "string", "A human-readable description of the status of this operation.",
                    (o, now) -> orEmpty(Json.text(o, "message"))),
            Column.of("First Seen", "string", "Time since the first occurrence.", (o, now) -> {
                String t = firstText(o, new String[] {"firstTimestamp"}, new String[] {"eventTime"},
                        new String[] {"metadata", "creationTimestamp"});
                return HumanDuration.since(t, now);
            }).wide(),
            Column.of("Count", "string", "The number of times this event has occurred.", (o, now) -> {
                long series = longAt(Json.at(o, "series"), "count");
                long c = series > 0 ? series : longAt(o, "count");
                return Long.toString(c == 0 ? 1 : c);
            }).wide(),
            new Column("Name", "string", "name", "Name of the event.", 1,
                    (o, now) -> Json.text(o, "metadata", "name")));

    static final List<Column> NAMESPACES = List.of(
            Column.of("Status", "string", "The status of the namespace.",
                    (o, now) -> orEmpty(Json.text(o, "status", "phase"))),
            TableConverter.age("Age"));

    static final List<Column> CONFIGMAPS = List.of(
            Column.of("Data", "integer", "Number of keys in the config map.",
                    (o, now) -> (long) (size(Json.at(o, "data")) + size(Json.at(o, "binaryData")))),
            TableConverter.age("Age"));

    static final List<Column> SECRETS = List.of(
            Column.of("Type", "string", "The type of the secret.", (o, now) -> orEmpty(Json.text(o, "type"))),
            Column.of("Data", "integer", "Number of items in the secret.", (o, now) -> (long) size(Json.at(o, "data"))),
            TableConverter.age("Age"));

    static final List<Column> LEASES = List.of(
            Column.of("Holder", "string", "The holder of a lease.",
                    (o, now) -> orEmpty(Json.text(o, "spec", "holderIdentity"))),
            TableConverter.age("Age"));

    static final List<Column> SERVICEACCOUNTS = List.of(
            Column.of("Secrets", "string", "Secrets is a list of the secrets in the same namespace that pods running "
                    + "using this ServiceAccount are allowed to use.",
                    (o, now) -> Long.toString(size(Json.at(o, "secrets")))),
            TableConverter.age("Age"));

    static final List<Column> ROLES = List.of(
            Column.of("Created At", "date", "CreationTimestamp is a timestamp representing the server time when "
                    + "this object was created.", (o, now) -> orEmpty(Json.text(o, "metadata", "creationTimestamp"))));

    /** kube-apiserver's default table for a resource without printer (the CRDs): the name and when it was created. */
    static final List<Column> CUSTOMRESOURCEDEFINITIONS = ROLES;

    static final List<Column> ROLEBINDINGS = List.of(
            Column.of("Role", "string", "RoleRef can reference a Role in the current namespace or a ClusterRole in "
                    + "the global namespace.", (o, now) -> orEmpty(Json.text(o, "roleRef", "kind")) + "/"
                    + orEmpty(Json.text(o, "roleRef", "name"))),
            TableConverter.age("Age"),
            Column.of("Users", "string", "Users in the roleBinding", (o, now) -> subjects(o, "User", false)).wide(),
            Column.of("Groups", "string", "Groups in the roleBinding", (o, now) -> subjects(o, "Group", false))
                    .wide(),
            Column.of("ServiceAccounts", "string", "ServiceAccounts in the roleBinding",
                    (o, now) -> subjects(o, "ServiceAccount", true)).wide());

    /** kubectl's rolebinding printer: subject names of one kind joined by ", " (service accounts as ns/name). */
    private static String subjects(JsonNode o, String kind, boolean withNamespace) {
        List<String> names = new java.util.ArrayList<>();
        JsonNode subjects = Json.at(o, "subjects");
        if (subjects != null && subjects.isArray()) {
            for (JsonNode s : subjects) {
                if (kind.equals(Json.text(s, "kind"))) {
                    String ns = orEmpty(Json.text(s, "namespace"));
                    names.add(withNamespace ? ns + "/" + orEmpty(Json.text(s, "name")) : orEmpty(Json.text(s, "name")));
                }
            }
        }
        return String.join(", ", names);
    }

    /** The pod STATUS cell, following kubectl's pod printer: phase, then reasons that explain it better. */
    static String podStatus(JsonNode o) {
        String reason = orEmpty(Json.text(o, "status", "phase"));
        String statusReason = Json.text(o, "status", "reason");
        if (statusReason != null && !statusReason.isEmpty()) {
            reason = statusReason;
        }
        boolean initializing = false;
        JsonNode inits = Json.at(o, "status", "initContainerStatuses");
        if (inits != null && inits.isArray()) {
            int i = 0;
            int total = size(Json.at(o, "spec", "initContainers"));
            for (JsonNode c : inits) {
                JsonNode term = Json.at(c, "state", "terminated");
                JsonNode wait = Json.at(c, "state", "waiting");
                if (term != null && longAt(term, "exitCode") == 0) {
                    i++;
                    continue;
                }
                if (term != null) {
                    reason = "Init:" + textOr(term, "reason", "ExitCode:" + longAt(term, "exitCode"));
                } else if (wait != null && Json.text(wait, "reason") != null
                        && !"PodInitializing".equals(Json.text(wait, "reason"))) {
                    reason = "Init:" + Json.text(wait, "reason");
                } else {
                    reason = "Init:" + i + "/" + total;
                }
                initializing = true;
                break;
            }
        }
        if (!initializing) {
            boolean hasRunning = false;
            JsonNode statuses = Json.at(o, "status", "containerStatuses");
            if (statuses != null && statuses.isArray()) {
                for (int i = statuses.size() - 1; i >= 0; i--) {
                    JsonNode c = statuses.get(i);
                    JsonNode wait = Json.at(c, "state", "waiting");
                    JsonNode term = Json.at(c, "state", "terminated");
                    if (wait != null && Json.text(wait, "reason") != null) {
                        reason = Json.text(wait, "reason");
                    } else if (term != null && Json.text(term, "reason") != null) {
                        reason = Json.text(term, "reason");
                    } else if (term != null) {
                        reason = longAt(term, "signal") != 0 ? "Signal:" + longAt(term, "signal")
                                : "ExitCode:" + longAt(term, "exitCode");
                    } else if (Json.at(c, "ready") != null && Json.at(c, "ready").asBoolean()
                            && Json.at(c, "state", "running") != null) {
                        hasRunning = true;
                    }
                }
            }
            if ("Completed".equals(reason) && hasRunning) {
                reason = hasPodReadyCondition(o) ? "Running" : "NotReady";
            }
        }
        if (Json.at(o, "metadata", "deletionTimestamp") != null) {
            reason = "NodeLost".equals(statusReason) ? "Unknown" : "Terminating";
        }
        return reason;
    }

    private static boolean hasPodReadyCondition(JsonNode o) {
        JsonNode conds = Json.at(o, "status", "conditions");
        if (conds != null && conds.isArray()) {
            for (JsonNode c : conds) {
                if ("Ready".equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static long readyContainers(JsonNode o) {
        long ready = 0;
        JsonNode statuses = Json.at(o, "status", "containerStatuses");
        if (statuses != null && statuses.isArray()) {
            for (JsonNode c : statuses) {
                if (c.path("ready").asBoolean(false)) {
                    ready++;
                }
            }
        }
        return ready;
    }

    /** The restarts of all containers, and how long ago the last one exited when there were any: "2 (15s ago)". */
    private static String restarts(JsonNode o, Instant now) {
        long n = 0;
        Instant lastExit = null;
        JsonNode statuses = Json.at(o, "status", "containerStatuses");
        if (statuses != null && statuses.isArray()) {
            for (JsonNode c : statuses) {
                n += c.path("restartCount").asLong(0);
                Instant exit = instant(Json.text(c, "lastState", "terminated", "finishedAt"));
                if (exit != null && (lastExit == null || exit.isAfter(lastExit))) {
                    lastExit = exit;
                }
            }
        }
        return n != 0 && lastExit != null ? n + " (" + HumanDuration.human(Duration.between(lastExit, now)) + " ago)"
                : Long.toString(n);
    }

    private static String readinessGates(JsonNode o) {
        JsonNode gates = Json.at(o, "spec", "readinessGates");
        if (gates == null || !gates.isArray() || gates.isEmpty()) {
            return NONE;
        }
        long trueCount = 0;
        JsonNode conds = Json.at(o, "status", "conditions");
        for (JsonNode g : gates) {
            String t = Json.text(g, "conditionType");
            if (conds != null && conds.isArray()) {
                for (JsonNode c : conds) {
                    if (t != null && t.equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                        trueCount++;
                    }
                }
            }
        }
        return trueCount + "/" + gates.size();
    }

    private static String externalIps(JsonNode o) {
        List<String> ips = new ArrayList<>();
        JsonNode ext = Json.at(o, "spec", "externalIPs");
        if (ext != null && ext.isArray()) {
            ext.forEach(ip -> ips.add(ip.asString()));
        }
        String type = Json.text(o, "spec", "type");
        if ("LoadBalancer".equals(type)) {
            JsonNode ingress = Json.at(o, "status", "loadBalancer", "ingress");
            if (ingress != null && ingress.isArray()) {
                for (JsonNode i : ingress) {
                    String v = Json.text(i, "ip") != null ? Json.text(i, "ip") : Json.text(i, "hostname");
                    if (v != null) {
                        ips.add(v);
                    }
                }
            }
            if (ips.isEmpty()) {
                return "<pending>";
            }
        }
        if ("ExternalName".equals(type)) {
            return orEmpty(Json.text(o, "spec", "externalName"));
        }
        return ips.isEmpty() ? NONE : String.join(",", ips);
    }

    private static String servicePorts(JsonNode o) {
        JsonNode ports = Json.at(o, "spec", "ports");
        if (ports == null || !ports.isArray() || ports.isEmpty()) {
            return NONE;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode p : ports) {
            String proto = textOr(p, "protocol", "TCP");
            long port = longAt(p, "port");
            long nodePort = longAt(p, "nodePort");
            out.add(nodePort > 0 ? port + ":" + nodePort + "/" + proto : port + "/" + proto);
        }
        return String.join(",", out);
    }

    private static String jobStatus(JsonNode o) {
        JsonNode conds = Json.at(o, "status", "conditions");
        if (conds != null && conds.isArray()) {
            for (String t : List.of("Failed", "Complete", "FailureTarget", "SuccessCriteriaMet", "Suspended")) {
                for (JsonNode c : conds) {
                    if (t.equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                        return switch (t) {
                            case "FailureTarget" -> "FailureTarget";
                            case "SuccessCriteriaMet" -> "SuccessCriteriaMet";
                            default -> t;
                        };
                    }
                }
            }
        }
        if (Json.at(o, "metadata", "deletionTimestamp") != null) {
            return "Terminating";
        }
        return "Running";
    }

    private static String containerField(JsonNode o, String field) {
        JsonNode cs = Json.at(o, "spec", "template", "spec", "containers");
        List<String> out = new ArrayList<>();
        if (cs != null && cs.isArray()) {
            cs.forEach(c -> out.add(orEmpty(Json.text(c, field))));
        }
        return String.join(",", out);
    }

    private static String nodeStatus(JsonNode o) {
        String status = "Unknown";
        JsonNode conds = Json.at(o, "status", "conditions");
        if (conds != null && conds.isArray()) {
            for (JsonNode c : conds) {
                if ("Ready".equals(Json.text(c, "type"))) {
                    status = "True".equals(Json.text(c, "status")) ? "Ready" : "NotReady";
                }
            }
        }
        if (Json.at(o, "spec", "unschedulable") != null && Json.at(o, "spec", "unschedulable").asBoolean()) {
            status += ",SchedulingDisabled";
        }
        return status;
    }

    private static String nodeRoles(JsonNode o) {
        JsonNode labels = Json.at(o, "metadata", "labels");
        List<String> roles = new ArrayList<>();
        if (labels != null && labels.isObject()) {
            labels.properties().forEach(e -> {
                if (e.getKey().startsWith("node-role.kubernetes.io/")) {
                    roles.add(e.getKey().substring("node-role.kubernetes.io/".length()));
                } else if (e.getKey().equals("kubernetes.io/role")) {
                    roles.add(e.getValue().asString());
                }
            });
        }
        roles.sort(null);
        return roles.isEmpty() ? NONE : String.join(",", roles);
    }

    private static String nodeAddress(JsonNode o, String type) {
        JsonNode addrs = Json.at(o, "status", "addresses");
        if (addrs != null && addrs.isArray()) {
            for (JsonNode a : addrs) {
                if (type.equals(Json.text(a, "type"))) {
                    return orNone(Json.text(a, "address"));
                }
            }
        }
        return NONE;
    }

    private static String labelsText(JsonNode map) {
        if (map == null || !map.isObject() || map.isEmpty()) {
            return NONE;
        }
        Map<String, String> sorted = new TreeMap<>();
        map.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asString()));
        List<String> out = new ArrayList<>();
        sorted.forEach((k, v) -> out.add(k + "=" + v));
        return String.join(",", out);
    }

    private static String firstText(JsonNode o, String[]... paths) {
        for (String[] p : paths) {
            String v = Json.text(o, p);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }

    private static Instant instant(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static int size(JsonNode n) {
        return n == null ? 0 : n.size();
    }

    private static long longAt(JsonNode o, String... path) {
        JsonNode n = Json.at(o, path);
        return n != null && n.canConvertToLong() ? n.asLong() : 0;
    }

    private static String textOr(JsonNode o, String field, String fallback) {
        String v = Json.text(o, field);
        return v == null || v.isEmpty() ? fallback : v;
    }

    private static String orNone(String s) {
        return s == null || s.isEmpty() ? NONE : s;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
