package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StorageUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;

/**
 * The one place where failures become metav1 Status bodies with the right code and reason. Unexpected
 * exceptions become a 500 Status with a short message: never a stack trace.
 */
@RestControllerAdvice
class StatusErrorAdvice {
    private static final Logger log = LoggerFactory.getLogger(StatusErrorAdvice.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<byte[]> api(ApiException e) {
        return body(e);
    }

    /** etcd did not answer: a Timeout Status the client retries, never a 500. */
    @ExceptionHandler(StorageUnavailableException.class)
    ResponseEntity<byte[]> storage(StorageUnavailableException e, HttpServletRequest req) {
        log.warn("{} {}: {}", req.getMethod(), req.getRequestURI(), e.getMessage());
        return body(ApiException.storageTimeout(e.getMessage()));
    }

    @ExceptionHandler({NoHandlerFoundException.class, NoResourceFoundException.class})
    ResponseEntity<byte[]> notFound(Exception e) {
        return body(ApiException.pathNotFound());
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<byte[]> method(HttpRequestMethodNotSupportedException e) {
        return body(new ApiException(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource", null));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<byte[]> mediaType(HttpMediaTypeNotSupportedException e) {
        return body(ApiException.unsupportedMediaType(RequestBodies.objectTypes()));
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<byte[]> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return body(ApiException.notAcceptable(RequestBodies.objectTypes()));
    }

    @ExceptionHandler(JacksonException.class)
    ResponseEntity<byte[]> decoding(JacksonException e) {
        return body(ApiException.badRequest("the request could not be decoded: " + e.getOriginalMessage()));
    }

    /** Tomcat decodes the query string lazily, on the first parameter read: bad percent-encoding is a bad request. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<byte[]> queryString(InvalidParameterException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        int note = message.indexOf(" Note that");
        return body(ApiException.badRequest("the query string could not be decoded: "
                + (note > 0 ? message.substring(0, note) : message)));
    }

    /** A watcher's client went away: nothing can be answered and nothing is wrong. */
    @ExceptionHandler(AsyncRequestNotUsableException.class)
    void disconnected(AsyncRequestNotUsableException e, HttpServletRequest req) {
        log.debug("client left {} {}: {}", req.getMethod(), req.getRequestURI(), e.getMessage());
    }

    /**
     * A streaming response (watch, log follow) the container ended: asynchronous requests never time out here, so
     * this is a shutdown that stopped waiting for it. The response is already under way; nothing is wrong.
     */
    @ExceptionHandler(AsyncRequestTimeoutException.class)
    void cutOff(AsyncRequestTimeoutException e, HttpServletRequest req) {
        log.debug("stream ended by the container {} {}", req.getMethod(), req.getRequestURI());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<byte[]> unexpected(Exception e, HttpServletRequest req) {
        log.error("unexpected failure on {} {}", req.getMethod(), req.getRequestURI(), e);
        return body(ApiException.internal(e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage())));
    }

    static ResponseEntity<byte[]> body(ApiException e) {
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        return new ResponseEntity<>(Json.MAPPER.writeValueAsBytes(StatusBodies.failure(e)), h,
                HttpStatus.valueOf(e.code()));
    }
}
