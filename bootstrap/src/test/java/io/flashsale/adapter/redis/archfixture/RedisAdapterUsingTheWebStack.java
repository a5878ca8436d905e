package io.flashsale.adapter.redis.archfixture;

import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.Valve;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/** Breaks the rules on purpose: each nested class uses one part of the web stack outside adapter-web and bootstrap. */
public final class RedisAdapterUsingTheWebStack {

    public static class UsingSpringWeb {
        public ResponseEntity<String> response;
    }

    @RestController
    public static class UsingSpringWebMvc {
    }

    public static class UsingTheServletApi {
        public HttpServletRequest request;
    }

    public static class UsingTomcat {
        public Valve valve;
    }

    public static class UsingJackson {
        public JsonMapper json;
    }

    private RedisAdapterUsingTheWebStack() {
    }
}
