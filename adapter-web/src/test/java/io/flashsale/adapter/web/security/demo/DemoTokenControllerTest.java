package io.flashsale.adapter.web.security.demo;

import io.flashsale.adapter.web.ApiExceptionHandler;
import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.security.BuyerTokenDecoders;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.http.MediaType;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

class DemoTokenControllerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DemoTokenIssuer issuer = DemoTokenIssuer.generate(Clock.systemUTC(), Duration.ofMinutes(15));

    @Test
    void givenDemoMode_whenABuyerSignsIn_thenASignedTokenNamingThem() throws Exception {
        String body = api(issuer).perform(post(DemoTokenController.PATH).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"buyer\":\"alice\"}"))
                .andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();

        String token = JSON.readTree(body).path("token").asString();
        var decoded = BuyerTokenDecoders.fromPublicKey(issuer.publicKey(), Set.of(SignatureAlgorithm.ES256)).decode(token);
        assertThat(decoded.getSubject()).isEqualTo("alice");
        assertThat(decoded.getExpiresAt()).isBefore(decoded.getIssuedAt().plus(Duration.ofMinutes(16)));
    }

    @Test
    void givenDemoMode_whenTheBuyerIsMalformed_then400Validation() throws Exception {
        api(issuer).perform(post(DemoTokenController.PATH).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"buyer\":\"bob smith\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("VALIDATION"));
    }

    @Test
    void givenNoDemoMode_whenABuyerSignsIn_then404() throws Exception {
        api(null).perform(post(DemoTokenController.PATH).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"buyer\":\"alice\"}"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.code").value("NOT_FOUND"));
    }

    private static MockMvc api(DemoTokenIssuer issuer) {
        var beans = new StaticListableBeanFactory();
        if (issuer != null) {
            beans.addBean("demoTokenIssuer", issuer);
        }
        return MockMvcBuilders.standaloneSetup(new DemoTokenController(beans.getBeanProvider(DemoTokenIssuer.class)))
                .setControllerAdvice(new ApiExceptionHandler(new CompleteProblemWriter(JSON)))
                .build();
    }
}
