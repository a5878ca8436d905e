package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.logging.LogContextFilter;
import io.flashsale.domain.reservation.BuyerId;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.MDC;

/**
 * Says who the buyer of a request is: from a verified bearer token ({@link JwtBuyerAuthenticator}) or from the header
 * a trusted gateway sets ({@link TrustedHeaderBuyerAuthenticator}). Taken alike by the controllers' argument resolver
 * and the lean reservation filter.
 */
public interface BuyerAuthenticator {

    /** The request's buyer; a {@link BuyerAuthenticationException} (a 401) when it carries none this can prove. */
    BuyerId authenticate(HttpServletRequest request);

    /**
     * The same answer, worked out once per request: when the lean filter hands an attempt on to the controller, the
     * controller's resolver reads the filter's answer instead of verifying the token again. The buyer proven goes
     * into the log context ({@link LogContextFilter#BUYER_ID}).
     */
    static BuyerAuthenticator oncePerRequest(BuyerAuthenticator authenticator) {
        String attribute = BuyerAuthenticator.class.getName() + ".answer";
        return request -> {
            Object known = request.getAttribute(attribute);
            if (known == null) {
                try {
                    BuyerId buyer = authenticator.authenticate(request);
                    MDC.put(LogContextFilter.BUYER_ID, buyer.value());
                    known = buyer;
                } catch (BuyerAuthenticationException refused) {
                    known = refused;
                }
                request.setAttribute(attribute, known);
            }
            if (known instanceof BuyerAuthenticationException refused) {
                throw refused;
            }
            return (BuyerId) known;
        };
    }
}
