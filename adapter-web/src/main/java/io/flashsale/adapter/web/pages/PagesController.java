package io.flashsale.adapter.web.pages;

import io.flashsale.adapter.web.NotFoundException;
import io.flashsale.adapter.web.ProblemCode;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import java.net.URI;
import java.util.Map;

/**
 * The two pages a person opens: the buyer's sale page and the operator's dashboard. Plain HTML with a little
 * vanilla JavaScript that calls the same API as any client; nothing is rendered on the server. Scripts and styles are
 * files of their own, so the pages' Content-Security-Policy allows no inline script or style ({@link PageHeaders}).
 */
@Controller
public class PagesController {

    private static final Resource SALE = new ClassPathResource("pages/sale.html");
    private static final Resource OPS = new ClassPathResource("pages/ops.html");
    private static final MediaType JAVASCRIPT = MediaType.parseMediaType("text/javascript;charset=UTF-8");
    private static final MediaType CSS = MediaType.parseMediaType("text/css;charset=UTF-8");
    /** The pages' scripts and styles by file name; nothing else under /pages is served. */
    private static final Map<String, Asset> ASSETS = Map.of(
            "sale.js", new Asset(new ClassPathResource("pages/sale.js"), JAVASCRIPT),
            "ops.js", new Asset(new ClassPathResource("pages/ops.js"), JAVASCRIPT),
            "sale.css", new Asset(new ClassPathResource("pages/sale.css"), CSS),
            "ops.css", new Asset(new ClassPathResource("pages/ops.css"), CSS));

    /** The page reads the activity id from its own path. */
    @GetMapping("/sales/{activityId}")
    public ResponseEntity<Resource> sale(@PathVariable String activityId) {
        return page(SALE, MediaType.TEXT_HTML);
    }

    @GetMapping("/ops")
    public ResponseEntity<Resource> ops() {
        return page(OPS, MediaType.TEXT_HTML);
    }

    @GetMapping("/pages/{file}")
    public ResponseEntity<Resource> asset(@PathVariable String file) {
        Asset asset = ASSETS.get(file);
        if (asset == null) {
            throw new NotFoundException(ProblemCode.NOT_FOUND, "there is no such page file");
        }
        return page(asset.resource(), asset.type());
    }

    @GetMapping("/")
    public ResponseEntity<Void> home() {
        return ResponseEntity.status(302).location(URI.create("/ops")).build();
    }

    private static ResponseEntity<Resource> page(Resource resource, MediaType type) {
        return PageHeaders.on(ResponseEntity.ok()).contentType(type).cacheControl(CacheControl.noCache()).body(resource);
    }

    private record Asset(Resource resource, MediaType type) {
    }
}
