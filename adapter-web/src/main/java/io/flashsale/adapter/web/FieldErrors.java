package io.flashsale.adapter.web;

import io.flashsale.domain.shared.InvalidValueException;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindingResult;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import java.util.ArrayList;
import java.util.List;

/** The {@code errors} of a VALIDATION problem, in the caller's terms: JSON paths and plain words. */
final class FieldErrors {

    static final String BODY = "body";

    private FieldErrors() {
    }

    static FieldErrorResponse of(InvalidValueException e) {
        String prefix = e.field() + " ";
        String message = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
        return new FieldErrorResponse(e.field(), message);
    }

    static List<FieldErrorResponse> of(BindingResult result) {
        var errors = new ArrayList<FieldErrorResponse>();
        result.getGlobalErrors().forEach(error -> errors.add(new FieldErrorResponse(BODY, error.getDefaultMessage())));
        result.getFieldErrors().forEach(error -> errors.add(new FieldErrorResponse(error.getField(), error.getDefaultMessage())));
        return errors;
    }

    /** Jackson's own messages name Java types; the caller gets the JSON path and a plain reason instead. */
    static FieldErrorResponse of(HttpMessageNotReadableException e) {
        JacksonException jackson = jacksonCause(e);
        if (jackson == null) {
            return new FieldErrorResponse(BODY, "is missing or unreadable");
        }
        String path = path(jackson);
        if (jackson instanceof StreamReadException && !(jackson instanceof InputCoercionException)) {
            return new FieldErrorResponse(BODY, "is not well-formed JSON");
        }
        if (jackson instanceof UnrecognizedPropertyException) {
            return new FieldErrorResponse(path, "is not a known field");
        }
        if (jackson instanceof InputCoercionException) {
            return new FieldErrorResponse(path, "is out of range");
        }
        if (jackson instanceof MismatchedInputException) {
            return new FieldErrorResponse(path, "has the wrong type or format");
        }
        return new FieldErrorResponse(path, "is not valid");
    }

    private static JacksonException jacksonCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JacksonException jackson) {
                return jackson;
            }
        }
        return null;
    }

    private static String path(JacksonException e) {
        var path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? BODY : path.toString();
    }
}
