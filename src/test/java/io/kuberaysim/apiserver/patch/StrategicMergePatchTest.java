package io.kuberaysim.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StrategicMergePatchTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String s) {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static JsonNode smp(String original, String patch) {
        return StrategicMergePatch.apply(json(original), json(patch), MergeKeys.builtins());
    }

    private static final String POD = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p2','labels':{'app':'x'}},"
            + "'spec':{'containers':[{'name':'c','image':'busybox:1','command':['sleep','3600'],"
            + "'env':[{'name':'A','value':'1'},{'name':'B','value':'2'}],"
            + "'ports':[{'containerPort':8080,'protocol':'TCP'}]}],"
            + "'volumes':[{'name':'v','emptyDir':{}}]}}";

    @Test
    void kubectlApplyBody() {
        JsonNode result = smp(POD, "{'metadata':{'annotations':{'kubectl.kubernetes.io/last-applied-configuration':'{}'}},"
                + "'spec':{'$setElementOrder/containers':[{'name':'c'}],'containers':[{'image':'busybox:2','name':'c'}]}}");
        assertThat(result.at("/spec/containers")).hasSize(1);
        assertThat(result.at("/spec/containers/0")).isEqualTo(json("{'name':'c','image':'busybox:2',"
                + "'command':['sleep','3600'],'env':[{'name':'A','value':'1'},{'name':'B','value':'2'}],"
                + "'ports':[{'containerPort':8080,'protocol':'TCP'}]}"));
        assertThat(result.at("/metadata/labels/app").stringValue()).isEqualTo("x");
        assertThat(result.at("/metadata/annotations").has("kubectl.kubernetes.io/last-applied-configuration")).isTrue();
        assertThat(result.toString()).doesNotContain("$setElementOrder");
    }

    @Test
    void inputsAreNotModified() {
        JsonNode original = json(POD);
        JsonNode patch = json("{'spec':{'$setElementOrder/containers':[{'name':'c'}],"
                + "'containers':[{'name':'c','image':'y','env':[{'name':'A','$patch':'delete'}]}]}}");
        JsonNode originalCopy = original.deepCopy();
        JsonNode patchCopy = patch.deepCopy();
        StrategicMergePatch.apply(original, patch, MergeKeys.builtins());
        assertThat(original).isEqualTo(originalCopy);
        assertThat(patch).isEqualTo(patchCopy);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        // maps merge, null deletes, scalars replace
        "map merge and null delete     | {'a':{'b':1,'c':2},'d':3}                  | {'a':{'b':null,'e':4},'d':'x'}                          | {'a':{'c':2,'e':4},'d':'x'}",
        "nulls inside new values drop  | {}                                         | {'a':{'b':null,'c':{'d':null,'e':1}}}                   | {'a':{'c':{'e':1}}}",
        "type change replaces          | {'a':{'b':1}}                              | {'a':[1]}                                               | {'a':[1]}",
        // $patch on maps
        "map replace                   | {'metadata':{'labels':{'a':'1','b':'2'}}}  | {'metadata':{'labels':{'$patch':'replace','c':'3'}}}    | {'metadata':{'labels':{'c':'3'}}}",
        "map delete empties            | {'spec':{'securityContext':{'runAsUser':1}}} | {'spec':{'securityContext':{'$patch':'delete'}}}     | {'spec':{'securityContext':{}}}",
        "map replace on absent keeps   | {'metadata':{}}                            | {'metadata':{'labels':{'$patch':'replace','c':'3'}}}    | {'metadata':{'labels':{'c':'3'}}}",
        "map delete on absent drops    | {'spec':{}}                                | {'spec':{'securityContext':{'$patch':'delete'}}}        | {'spec':{}}",
        "explicit map merge            | {'metadata':{'labels':{'a':'1'}}}          | {'metadata':{'labels':{'$patch':'merge','b':'2'}}}      | {'metadata':{'labels':{'a':'1','b':'2'}}}",
        // lists with a merge key
        "merge element by key          | {'spec':{'containers':[{'name':'a','image':'1'},{'name':'b','image':'1'}]}} | {'spec':{'containers':[{'name':'b','image':'2'}]}} | {'spec':{'containers':[{'name':'a','image':'1'},{'name':'b','image':'2'}]}}",
        "new element goes first        | {'spec':{'containers':[{'name':'a'}]}}     | {'spec':{'containers':[{'name':'n'}]}}                  | {'spec':{'containers':[{'name':'n'},{'name':'a'}]}}",
        "delete element                | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'containers':[{'name':'a','$patch':'delete'}]}} | {'spec':{'containers':[{'name':'b'}]}}",
        "replace list                  | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'containers':[{'$patch':'replace'},{'name':'z','x':null}]}} | {'spec':{'containers':[{'name':'z'}]}}",
        "replace on new list           | {'spec':{}}                                | {'spec':{'containers':[{'$patch':'replace'},{'name':'z'}]}} | {'spec':{'containers':[{'name':'z'}]}}",
        "new list drops directives     | {'spec':{}}                                | {'spec':{'containers':[{'name':'a'},{'name':'b','$patch':'delete'}]}} | {'spec':{'containers':[{'name':'a'}]}}",
        "env merges inside container   | {'spec':{'containers':[{'name':'c','env':[{'name':'A','value':'1'}]}]}} | {'spec':{'containers':[{'name':'c','env':[{'name':'A','value':'2'},{'name':'B','value':'3'}]}]}} | {'spec':{'containers':[{'name':'c','env':[{'name':'A','value':'2'},{'name':'B','value':'3'}]}]}}",
        "ports merge by containerPort  | {'spec':{'containers':[{'name':'c','ports':[{'containerPort':80,'name':'a'},{'containerPort':81}]}]}} | {'spec':{'containers':[{'name':'c','ports':[{'containerPort':80.0,'name':'b'}]}]}} | {'spec':{'containers':[{'name':'c','ports':[{'containerPort':80.0,'name':'b'},{'containerPort':81}]}]}}",
        "volumeMounts by mountPath     | {'spec':{'containers':[{'name':'c','volumeMounts':[{'mountPath':'/a','name':'x'}]}]}} | {'spec':{'containers':[{'name':'c','volumeMounts':[{'mountPath':'/a','readOnly':true}]}]}} | {'spec':{'containers':[{'name':'c','volumeMounts':[{'mountPath':'/a','name':'x','readOnly':true}]}]}}",
        "service ports by port         | {'spec':{'ports':[{'port':80,'name':'http'},{'port':443,'name':'https'}]}} | {'spec':{'ports':[{'port':443,'targetPort':8443}]}} | {'spec':{'ports':[{'port':80,'name':'http'},{'port':443,'name':'https','targetPort':8443}]}}",
        "conditions by type            | {'status':{'conditions':[{'type':'Ready','status':'False'},{'type':'PodScheduled','status':'True'}]}} | {'status':{'conditions':[{'type':'Ready','status':'True'}]}} | {'status':{'conditions':[{'type':'Ready','status':'True'},{'type':'PodScheduled','status':'True'}]}}",
        "ownerReferences by uid        | {'metadata':{'ownerReferences':[{'uid':'1','name':'a'}]}} | {'metadata':{'ownerReferences':[{'uid':'1','controller':true}]}} | {'metadata':{'ownerReferences':[{'uid':'1','name':'a','controller':true}]}}",
        "job template containers       | {'spec':{'template':{'spec':{'containers':[{'name':'c','image':'1','env':[{'name':'A'}]}]}}}} | {'spec':{'template':{'spec':{'containers':[{'name':'c','image':'2'}]}}}} | {'spec':{'template':{'spec':{'containers':[{'name':'c','image':'2','env':[{'name':'A'}]}]}}}}",
        // lists without a merge key are replaced
        "args replaced                 | {'spec':{'containers':[{'name':'c','args':['x','y']}]}} | {'spec':{'containers':[{'name':'c','args':['z']}]}} | {'spec':{'containers':[{'name':'c','args':['z']}]}}",
        "unknown object list replaced  | {'spec':{'tolerations':[{'key':'a'},{'key':'b'}]}} | {'spec':{'tolerations':[{'key':'c'}]}}          | {'spec':{'tolerations':[{'key':'c'}]}}",
        // primitive lists with the merge strategy
        "finalizers union              | {'metadata':{'finalizers':['a','b','c']}}  | {'metadata':{'finalizers':['d','a']}}                   | {'metadata':{'finalizers':['d','a','b','c']}}",
        "finalizers delete             | {'metadata':{'finalizers':['a','b','c']}}  | {'metadata':{'$deleteFromPrimitiveList/finalizers':['b','x']}} | {'metadata':{'finalizers':['a','c']}}",
        "finalizers delete on absent   | {'metadata':{}}                            | {'metadata':{'$deleteFromPrimitiveList/finalizers':['b']}} | {'metadata':{}}",
        "finalizers delete and add     | {'metadata':{'finalizers':['a','b']}}      | {'metadata':{'$setElementOrder/finalizers':['a','c'],'$deleteFromPrimitiveList/finalizers':['b'],'finalizers':['c']}} | {'metadata':{'finalizers':['a','c']}}",
        // $setElementOrder
        "set order reorders            | {'spec':{'containers':[{'name':'a'},{'name':'b'},{'name':'c'}]}} | {'spec':{'$setElementOrder/containers':[{'name':'c'},{'name':'a'}],'containers':[{'name':'c','image':'x'},{'name':'b','$patch':'delete'}]}} | {'spec':{'containers':[{'name':'c','image':'x'},{'name':'a'}]}}",
        "set order keeps server items  | {'spec':{'containers':[{'name':'a'},{'name':'b'},{'name':'c'}]}} | {'spec':{'$setElementOrder/containers':[{'name':'c'},{'name':'a'}]}} | {'spec':{'containers':[{'name':'b'},{'name':'c'},{'name':'a'}]}}",
        "set order with new item       | {'spec':{'containers':[{'name':'a'},{'name':'b'}]}} | {'spec':{'$setElementOrder/containers':[{'name':'a'},{'name':'n'},{'name':'b'}],'containers':[{'name':'n','image':'i'}]}} | {'spec':{'containers':[{'name':'a'},{'name':'n','image':'i'},{'name':'b'}]}}",
        "set order on new list         | {'spec':{}}                                | {'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'}],'containers':[{'name':'b'},{'name':'a'}]}} | {'spec':{'containers':[{'name':'b'},{'name':'a'}]}}",
        "set order on env              | {'spec':{'containers':[{'name':'c','env':[{'name':'A'},{'name':'B'}]}]}} | {'spec':{'$setElementOrder/containers':[{'name':'c'}],'containers':[{'name':'c','$setElementOrder/env':[{'name':'B'},{'name':'A'}]}]}} | {'spec':{'containers':[{'name':'c','env':[{'name':'B'},{'name':'A'}]}]}}",
        // $retainKeys
        "retain keys                   | {'spec':{'volumes':[{'name':'v','emptyDir':{}}]}} | {'spec':{'volumes':[{'name':'v','$retainKeys':['configMap','name'],'configMap':{'name':'cm'}}]}} | {'spec':{'volumes':[{'name':'v','configMap':{'name':'cm'}}]}}",
        "retain keys on map            | {'spec':{'strategy':{'type':'Recreate','rollingUpdate':{'maxSurge':1}}}} | {'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate','rollingUpdate':null}}} | {'spec':{'strategy':{'type':'Recreate'}}}",
        "retain keys on new map        | {'spec':{}}                                | {'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'}}} | {'spec':{'strategy':{'type':'Recreate'}}}",
    })
    void directives(String name, String original, String patch, String expected) {
        assertThat(smp(original, patch)).isEqualTo(json(expected));
    }

    @Test
    void topLevelReplace() {
        assertThat(smp("{'a':1,'b':2}", "{'$patch':'replace','c':3}")).isEqualTo(json("{'c':3}"));
    }

    @Test
    void withoutMergeKeysEveryListIsReplaced() {
        assertThat(StrategicMergePatch.apply(json("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}"),
                json("{'spec':{'containers':[{'name':'b','image':'x'}]}}"), MergeKeys.none()))
                .isEqualTo(json("{'spec':{'containers':[{'name':'b','image':'x'}]}}"));
    }

    @Test
    void nullOriginalIsEmptyObject() {
        assertThat(StrategicMergePatch.apply(null, json("{'a':{'b':null,'c':1}}"), MergeKeys.builtins()))
                .isEqualTo(json("{'a':{'c':1}}"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "{'spec':{'$patch':'frob'}}                                                    | unknown patch type: frob in map: ",
        "{'spec':{'containers':[{'$patch':'delete','image':'x'}]}}                     | does not contain declared merge key: name",
        "{'spec':{'containers':[{'image':'x'}]}}                                       | does not contain declared merge key: name",
        "{'spec':{'containers':[{'$patch':'merge'}]}}                                  | merging lists cannot yet be specified in the patch",
        "{'spec':{'containers':[{'$patch':'frob','name':'a'}]}}                        | unknown patch type: frob in map: ",
        "{'spec':{'$retainKeys':['a'],'b':1}}                                          | invalid patch format of retainKeys",
        "{'spec':{'$retainKeys':'a'}}                                                  | invalid patch format of retainKeys",
        "{'spec':{'$setElementOrder/containers':[{'name':'a'}],'containers':[{'name':'b'}]}} | doesn't match $setElementOrder list",
        "{'spec':{'$setElementOrder/containers':{'name':'a'}}}                         | invalid patch format of setElementOrder list",
        "{'spec':{'$setElementOrder':[]}}                                              | invalid patch format of setElementOrder list",
        "{'metadata':{'$deleteFromPrimitiveList':['a']}}                               | invalid patch format of primitive list",
        "{'spec':{'containers':[[1]]}}                                                 | lists of lists are not supported",
        "{'spec':{'containers':['x']}}                                                 | list element types are not identical",
    })
    void malformedPatches(String patch, String message) {
        assertThatThrownBy(() -> smp(POD, patch)).isInstanceOf(PatchException.class).hasMessageContaining(message);
    }

    @Test
    void patchMustBeAnObject() {
        assertThatThrownBy(() -> smp(POD, "[1]")).isInstanceOf(PatchException.class)
                .hasMessageContaining("must be a JSON object");
    }
}
