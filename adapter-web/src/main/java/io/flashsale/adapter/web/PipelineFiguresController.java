package io.flashsale.adapter.web;

import io.flashsale.adapter.web.PipelineFigures.Figure;
import io.flashsale.adapter.web.security.AdminOnly;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The pipeline figures of the operators' page, behind the admin token on the API: the page never reaches for the
 * actuator, which has its own port and no place on the buyers' one.
 */
@RestController
public class PipelineFiguresController {

    private final PipelineFigures figures;

    public PipelineFiguresController(PipelineFigures figures) {
        this.figures = figures;
    }

    @AdminOnly
    @GetMapping("/api/v1/admin/pipeline-figures")
    public PipelineFiguresResponse figures() {
        return new PipelineFiguresResponse(figures.value(Figure.ORDERS_PLACED), figures.value(Figure.EVENTS_RELAYED),
                figures.value(Figure.CONSUMER_LAG), figures.value(Figure.OUTBOX_DEPTH),
                figures.value(Figure.OUTBOX_OLDEST_AGE_SECONDS));
    }
}
