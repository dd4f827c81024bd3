package io.kuberaysim.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class MergePatchTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String s) {
        return JSON.readTree(s.replace('\'', '"'));
    }

    /** The examples of RFC 7386 appendix A (those with an object patch) plus a kubectl apply body. */
    @ParameterizedTest(name = "[{index}] {0} + {1}")
    @CsvSource(delimiter = '|', value = {
        "{'a':'b'}                         | {'a':'c'}                  | {'a':'c'}",
        "{'a':'b'}                         | {'b':'c'}                  | {'a':'b','b':'c'}",
        "{'a':'b'}                         | {'a':null}                 | {}",
        "{'a':'b','b':'c'}                 | {'a':null}                 | {'b':'c'}",
        "{'a':['b']}                       | {'a':'c'}                  | {'a':'c'}",
        "{'a':'c'}                         | {'a':['b']}                | {'a':['b']}",
        "{'a':{'b':'c'}}                   | {'a':{'b':'d','c':null}}   | {'a':{'b':'d'}}",
        "{'a':[{'b':'c'}]}                 | {'a':[1]}                  | {'a':[1]}",
        "{'e':null}                        | {'a':1}                    | {'e':null,'a':1}",
        "[1,2]                             | {'a':'b','c':null}         | {'a':'b'}",
        "{}                                | {'a':{'bb':{'ccc':null}}}  | {'a':{'bb':{}}}",
        "{'metadata':{'labels':{'app':'x'}},'spec':{'rayVersion':'2.9.0','x':1}} | {'metadata':{'labels':{'foo':'bar'}},'spec':{'rayVersion':'2.9.1','x':null}} | {'metadata':{'labels':{'app':'x','foo':'bar'}},'spec':{'rayVersion':'2.9.1'}}",
    })
    void rfc7386Examples(String target, String patch, String expected) {
        assertThat(MergePatch.apply(json(target), json(patch))).isEqualTo(json(expected));
    }

    @Test
    void inputsAreNotModified() {
        JsonNode target = json("{'a':{'b':1,'c':2}}");
        JsonNode patch = json("{'a':{'b':null,'d':{'e':1}}}");
        JsonNode result = MergePatch.apply(target, patch);
        assertThat(target).isEqualTo(json("{'a':{'b':1,'c':2}}"));
        assertThat(patch).isEqualTo(json("{'a':{'b':null,'d':{'e':1}}}"));
        assertThat(result).isEqualTo(json("{'a':{'c':2,'d':{'e':1}}}"));
        ((tools.jackson.databind.node.ObjectNode) result.get("a").get("d")).put("x", 1);
        assertThat(patch.get("a").get("d").has("x")).isFalse();
    }

    @Test
    void partsThePatchDoesNotReachAreSharedWithTheTarget() {
        JsonNode target = json("{'metadata':{'name':'a'},'spec':{'x':{'y':1}},'status':{'phase':'P','n':1}}");
        JsonNode result = MergePatch.apply(target, json("{'status':{'phase':'R'}}"));
        assertThat(result.get("spec")).isSameAs(target.get("spec"));
        assertThat(result.get("metadata")).isSameAs(target.get("metadata"));
        assertThat(result.get("status")).isNotSameAs(target.get("status")).isEqualTo(json("{'phase':'R','n':1}"));
        assertThat(target.get("status")).isEqualTo(json("{'phase':'P','n':1}"));
    }

    @Test
    void nullTargetIsEmptyObject() {
        assertThat(MergePatch.apply(null, json("{'a':1}"))).isEqualTo(json("{'a':1}"));
    }

    @Test
    void nonObjectPatchIsRejected() {
        assertThatThrownBy(() -> MergePatch.apply(json("{}"), json("[1]")))
                .isInstanceOf(PatchException.class).hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> MergePatch.apply(json("{}"), null)).isInstanceOf(PatchException.class);
    }
}
