package io.flashsale.adapter.web;

/** A resource the caller may not see or that cannot exist, such as an id of the wrong shape. */
public class NotFoundException extends RuntimeException {

    private final ProblemCode code;

    public NotFoundException(ProblemCode code, String detail) {
        super(detail);
        this.code = code;
    }

    public ProblemCode code() {
        return code;
    }
}
