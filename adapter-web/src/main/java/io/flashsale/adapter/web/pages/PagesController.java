package io.flashsale.adapter.web.pages;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import java.net.URI;

/**
 * The two pages a person opens: the buyer's sale page and the operator's dashboard. Plain HTML with a little
 * vanilla JavaScript that calls the same API as any client; nothing is rendered on the server.
 */
@Controller
public class PagesController {

    private static final Resource SALE = new ClassPathResource("pages/sale.html");
    private static final Resource OPS = new ClassPathResource("pages/ops.html");

    /** The page reads the activity id from its own path. */
    @GetMapping("/sales/{activityId}")
    public ResponseEntity<Resource> sale(@PathVariable String activityId) {
        return page(SALE);
    }

    @GetMapping("/ops")
    public ResponseEntity<Resource> ops() {
        return page(OPS);
    }

    @GetMapping("/")
    public ResponseEntity<Void> home() {
        return ResponseEntity.status(302).location(URI.create("/ops")).build();
    }

    private static ResponseEntity<Resource> page(Resource resource) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noCache()).body(resource);
    }
}
