package io.kuberaysim.apiserver.http;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.kuberaysim.api.Json;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code /openapi/v2}: a Swagger 2.0 document with no paths and no definitions, in JSON or in the protobuf form
 * (gnostic's {@code openapi.v2.Document}) that client-go asks for. Everything is described in OpenAPI v3; kubectl
 * downloads v2 only for kinds that v3 does not describe (one this server does not serve, a Binding), and with this
 * document it skips client-side validation of those as it does for kinds a real server has no schema for, so an
 * unknown kind gets kube's "no matches for kind … ensure CRDs are installed first" and the rest of the file is
 * applied, where a 404 here failed the whole file with "failed to download openapi".
 */
@RestController
class OpenApiV2Controller {
    /**
     * The protobuf type kube-apiserver answers with. client-go asks for the older name with an {@code @}, which no
     * media-type parser accepts in an answer (Go's refuses it), so that name is only looked for in {@code Accept}.
     */
    static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

    private static final byte[] JSON_DOCUMENT = json();
    private static final byte[] PROTOBUF_DOCUMENT = protobuf();

    /** Written directly: Spring's media types would parse the {@code Accept} names it cannot read. */
    @GetMapping("/openapi/v2")
    void document(@RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept,
                  HttpServletResponse response) throws IOException {
        boolean proto = accept != null && accept.contains("com.github.proto-openapi.spec.v2");
        byte[] body = proto ? PROTOBUF_DOCUMENT : JSON_DOCUMENT;
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(proto ? PROTOBUF : MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static byte[] json() {
        ObjectNode doc = Json.object();
        doc.put("swagger", "2.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", VersionController.GIT_VERSION);
        doc.putObject("paths");
        doc.putObject("definitions");
        return Json.MAPPER.writeValueAsBytes(doc);
    }

    /** Document{swagger = 1, info = 2 (Info{title = 1, version = 2}), paths = 8, definitions = 9}. */
    private static byte[] protobuf() {
        ByteString info = message(out -> {
            out.writeString(1, "Kubernetes");
            out.writeString(2, VersionController.GIT_VERSION);
        });
        return message(out -> {
            out.writeString(1, "2.0");
            out.writeBytes(2, info);
            out.writeBytes(8, ByteString.EMPTY);
            out.writeBytes(9, ByteString.EMPTY);
        }).toByteArray();
    }

    private interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString message(Fields fields) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            fields.write(out);
            out.flush();
            return ByteString.copyFrom(bytes.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
