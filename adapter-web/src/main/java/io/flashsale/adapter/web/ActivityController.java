package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.in.ArchiveActivityUseCase;
import io.flashsale.application.sale.port.in.CreateActivityUseCase;
import io.flashsale.application.sale.port.in.GetActivityUseCase;
import io.flashsale.application.sale.port.in.GetStockUseCase;
import io.flashsale.application.slice.port.in.GetSlicePlacementUseCase;
import io.flashsale.application.sale.port.in.ListActivitiesUseCase;
import io.flashsale.application.sale.port.in.WarmUpActivityUseCase;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import jakarta.validation.Valid;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import java.util.Optional;

@RestController
@RequestMapping("/api/v1/activities")
public class ActivityController {

    private final CreateActivityUseCase createActivity;
    private final GetActivityUseCase getActivity;
    private final WarmUpActivityUseCase warmUpActivity;
    private final GetStockUseCase getStock;
    private final GetSlicePlacementUseCase slicePlacement;
    private final ArchiveActivityUseCase archiveActivity;
    private final ListActivitiesUseCase listActivities;
    private final ContentTags tags;

    public ActivityController(CreateActivityUseCase createActivity, GetActivityUseCase getActivity,
                              WarmUpActivityUseCase warmUpActivity, GetStockUseCase getStock,
                              GetSlicePlacementUseCase slicePlacement, ArchiveActivityUseCase archiveActivity,
                              ListActivitiesUseCase listActivities, ContentTags tags) {
        this.createActivity = createActivity;
        this.getActivity = getActivity;
        this.warmUpActivity = warmUpActivity;
        this.getStock = getStock;
        this.slicePlacement = slicePlacement;
        this.archiveActivity = archiveActivity;
        this.listActivities = listActivities;
        this.tags = tags;
    }

    /** The operator's list: sales not archived yet, latest start first, at most 100. */
    @AdminOnly
    @GetMapping
    public ListedActivitiesResponse list() {
        return ListedActivitiesResponse.of(listActivities.unarchived());
    }

    @AdminOnly
    @PostMapping
    public ResponseEntity<ActivityResponse> create(@Valid @RequestBody CreateActivityRequest request) {
        Activity activity = createActivity.create(request.toCommand());
        return ResponseEntity
                .created(UriComponentsBuilder.fromPath("/api/v1/activities/{id}").build(activity.id().value()))
                .body(ActivityResponse.of(activity, Optional.empty()));
    }

    /**
     * The buyer's page polls this every second: a strong tag of the body and {@code no-cache}, so a poll that sends
     * {@code If-None-Match} with the current tag is answered 304 without a body (Spring compares the tags).
     */
    @GetMapping("/{activityId}")
    public ResponseEntity<ActivityResponse> get(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        ActivityResponse body = getActivity.find(id).map(ActivityResponse::of)
                .orElseThrow(() -> new ActivityNotFoundException(id));
        return ResponseEntity.ok().eTag(tags.of(body)).cacheControl(CacheControl.noCache()).body(body);
    }

    @AdminOnly
    @PostMapping("/{activityId}/warm-up")
    public StockResponse warmUp(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return StockResponse.of(id, warmUpActivity.warmUp(id), slicePlacement.placement(id));
    }

    @AdminOnly
    @GetMapping("/{activityId}/stock")
    public StockResponse stock(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return StockResponse.of(id, getStock.stock(id), slicePlacement.placement(id));
    }

    /** Takes an ended sale out of Redis once nothing of it is in flight; safe to repeat. */
    @AdminOnly
    @PostMapping("/{activityId}/archive")
    public ResponseEntity<?> archive(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return ArchiveOutcomeResponses.of(id, archiveActivity.archive(id));
    }
}
