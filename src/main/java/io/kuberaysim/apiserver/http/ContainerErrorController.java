package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors the servlet container forwards to its error page (a method it refuses, an exception that escaped a filter,
 * a {@code sendError}) are answered as Status, in place of Spring Boot's {@code /error} JSON. Asked for directly,
 * {@code /error} is a path like any other the server does not serve: 404.
 */
@Hidden
@RestController
class ContainerErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<byte[]> error(HttpServletRequest req) {
        if (req.getDispatcherType() != DispatcherType.ERROR) {
            return StatusErrorAdvice.body(ApiException.pathNotFound());
        }
        if (req.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof ApiException e) {
            return StatusErrorAdvice.body(e);
        }
        Object code = req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object message = req.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        return StatusErrorAdvice.body(ContainerErrors.of(code instanceof Integer c ? c : 500, req.getMethod(),
                message instanceof String m ? m : null));
    }
}
