package io.flashsale.adapter.web.security.demo;

import io.flashsale.adapter.web.NotFoundException;
import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.ApiIds;
import io.flashsale.domain.reservation.BuyerId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;

/**
 * {@code POST /demo/tokens {"buyer": "alice"}}: a signed buyer token from the {@link DemoTokenIssuer}, for the buyer
 * page's sign-in in demo mode. Outside demo mode there is no issuer and the path answers 404 like any unknown one.
 */
@RestController
public class DemoTokenController {

    public static final String PATH = "/demo/tokens";

    private final ObjectProvider<DemoTokenIssuer> issuer;

    public DemoTokenController(ObjectProvider<DemoTokenIssuer> issuer) {
        this.issuer = issuer;
    }

    @PostMapping(PATH)
    public DemoTokenResponse issue(@Valid @RequestBody DemoTokenRequest request) {
        DemoTokenIssuer demo = issuer.getIfAvailable();
        if (demo == null) {
            throw new NotFoundException(ProblemCode.NOT_FOUND, "there is nothing at this path");
        }
        DemoTokenIssuer.IssuedToken issued = demo.issue(new BuyerId(request.buyer()));
        return new DemoTokenResponse(issued.token(), issued.expiresAt());
    }

    public record DemoTokenRequest(@NotNull @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String buyer) {
    }

    public record DemoTokenResponse(String token, Instant expiresAt) {
    }
}
