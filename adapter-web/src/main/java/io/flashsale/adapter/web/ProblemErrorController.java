package io.flashsale.adapter.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet container's error page, for failures that never reached a controller (a filter, the
 * container itself): the same problem+json shape, with no stack trace or exception message. A request sent to the
 * error path itself carries no error: there is nothing there, 404 {@code NOT_FOUND}.
 */
@RestController
public class ProblemErrorController implements ErrorController {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemErrorController.class);

    @RequestMapping("${server.error.path:/error}")
    public ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        if (isDirect(request)) {
            return Problems.response(Problems.at(Problems.of(ProblemCode.NOT_FOUND, "there is nothing at this path"),
                    request.getRequestURI()));
        }
        HttpStatus status = status(request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE));
        if (status.is5xxServerError()) {
            LOG.error("request to {} failed", request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI),
                    (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION));
        }
        ProblemDetail problem = Problems.of(status, ProblemCode.forStatus(status.value()), status.getReasonPhrase());
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        return Problems.response(Problems.at(problem, uri instanceof String path ? path : null));
    }

    /** Neither a status nor an exception from the container's error dispatch: a client asked for this path. */
    private static boolean isDirect(HttpServletRequest request) {
        return request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null
                && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) == null;
    }

    private static HttpStatus status(Object code) {
        if (code instanceof Integer value) {
            HttpStatus status = HttpStatus.resolve(value);
            if (status != null && status.isError()) {
                return status;
            }
        }
        return HttpStatus.INTERNAL_SERVER_ERROR;
    }
}
