package io.kuberaysim.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonPatchTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String s) {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static final String DOC = "{'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{'labels':{'x':'1'}}}";

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "[{'op':'replace','path':'/spec/suspend','value':false}]                | {'spec':{'suspend':false,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{'labels':{'x':'1'}}}",
        "[{'op':'add','path':'/metadata/labels/y','value':'2'}]                  | {'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{'labels':{'x':'1','y':'2'}}}",
        "[{'op':'remove','path':'/spec/workers/0'}]                               | {'spec':{'suspend':true,'workers':[{'name':'b'}]},'metadata':{'labels':{'x':'1'}}}",
        "[{'op':'add','path':'/spec/workers/-','value':{'name':'c'}}]            | {'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'},{'name':'c'}]},'metadata':{'labels':{'x':'1'}}}",
        "[{'op':'test','path':'/spec/suspend','value':true},{'op':'move','from':'/metadata/labels','path':'/labels'}] | {'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{},'labels':{'x':'1'}}",
        "[{'op':'copy','from':'/spec/suspend','path':'/metadata/suspend'}]       | {'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{'labels':{'x':'1'},'suspend':true}}",
        "[]                                                                       | " + "{'spec':{'suspend':true,'workers':[{'name':'a'},{'name':'b'}]},'metadata':{'labels':{'x':'1'}}}",
    })
    void applies(String patch, String expected) {
        JsonNode doc = json(DOC);
        assertThat(JsonPatch.apply(doc, json(patch))).isEqualTo(json(expected));
        assertThat(doc).isEqualTo(json(DOC));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "{'op':'add'}                                                    | must be a JSON array",
        "[1]                                                             | json patch operation 0: must be a JSON object",
        "[{'path':'/a'}]                                                 | json patch operation 0: missing \"op\"",
        "[{'op':'frobnicate','path':'/a'}]                               | unexpected op \"frobnicate\"",
        "[{'op':'add','value':1}]                                        | add is missing \"path\"",
        "[{'op':'add','path':'/a'}]                                      | add at path \"/a\" is missing \"value\"",
        "[{'op':'move','path':'/a'}]                                     | move at path \"/a\" is missing \"from\"",
        "[{'op':'add','path':'a','value':1}]                             | invalid path \"a\"",
        "[{'op':'replace','path':'/spec/nope','value':1}]                | (replace at path \"/spec/nope\") does not apply",
        "[{'op':'remove','path':'/spec/nope'}]                           | (remove at path \"/spec/nope\") does not apply",
        "[{'op':'test','path':'/spec/suspend','value':false}]            | (test at path \"/spec/suspend\") does not apply",
        "[{'op':'add','path':'/nope/deeper','value':1}]                  | (add at path \"/nope/deeper\") does not apply",
    })
    void errors(String patch, String message) {
        assertThatThrownBy(() -> JsonPatch.apply(json(DOC), json(patch)))
                .isInstanceOf(PatchException.class)
                .hasMessageContaining(message);
    }

    @Test
    void failureNamesTheOperation() {
        assertThatThrownBy(() -> JsonPatch.apply(json(DOC), json(
                "[{'op':'add','path':'/a','value':1},{'op':'replace','path':'/spec/nope','value':1}]")))
                .hasMessageStartingWith("json patch operation 1 (replace at path \"/spec/nope\") does not apply: ");
    }

    @Test
    void nullPatchIsRejected() {
        assertThatThrownBy(() -> JsonPatch.apply(json(DOC), null)).isInstanceOf(PatchException.class);
    }
}
