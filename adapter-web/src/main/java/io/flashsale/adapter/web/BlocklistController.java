package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.adapter.web.security.AdminOperator;
import io.flashsale.application.blocklist.port.in.ManageBlocklistUseCase;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.Optional;

/**
 * The risk control's blocklist (ADR 0081): buyers, client addresses or blocks of them, devices. Behind the admin token;
 * every change is audited with its operator (the one whose admin token made the call) and reaches every instance
 * within moments.
 */
@RestController
@RequestMapping("/api/v1/admin/blocklist")
public class BlocklistController {

    private final ManageBlocklistUseCase blocklist;

    public BlocklistController(ManageBlocklistUseCase blocklist) {
        this.blocklist = blocklist;
    }

    /** 201 with the entry as listed; 409 {@code BLOCKLIST_ENTRY_EXISTS} when its kind and value are listed already. */
    @AdminOnly
    @PostMapping
    public ResponseEntity<?> block(@Valid @RequestBody BlocklistEntryRequest request,
                                   @AdminOperator String operator) {
        Optional<BlockEntry> added = blocklist.block(BlockKind.ofLabel(request.kind()), request.value(),
                request.reason(), operator);
        return added.<ResponseEntity<?>>map(entry -> ResponseEntity.status(HttpStatus.CREATED)
                        .body(BlocklistEntryResponse.of(entry)))
                .orElseGet(() -> Problems.response(Problems.of(ProblemCode.BLOCKLIST_ENTRY_EXISTS,
                        "the " + request.kind() + " is on the blocklist already")));
    }

    /**
     * 204 once the value is off the list; 404 {@code BLOCKLIST_ENTRY_NOT_FOUND} when it was not on it. The value goes
     * in the query (an address block holds a slash), in any spelling of it: {@code 203.0.113.7/24} removes
     * {@code 203.0.113.0/24}.
     */
    @AdminOnly
    @DeleteMapping
    public ResponseEntity<?> unblock(@RequestParam String kind, @RequestParam String value,
                                     @AdminOperator String operator) {
        if (!blocklist.unblock(BlockKind.ofLabel(kind), value, operator)) {
            return Problems.response(Problems.of(ProblemCode.BLOCKLIST_ENTRY_NOT_FOUND,
                    "the " + kind + " is not on the blocklist"));
        }
        return ResponseEntity.noContent().build();
    }

    /** Every entry, oldest first, as the database of record holds it now. */
    @AdminOnly
    @GetMapping
    public BlocklistResponse entries() {
        return new BlocklistResponse(blocklist.entries().stream().map(BlocklistEntryResponse::of).toList());
    }

    /** The audit: every change of the list, oldest first. */
    @AdminOnly
    @GetMapping("/changes")
    public BlocklistChangesResponse changes() {
        return new BlocklistChangesResponse(blocklist.changes().stream()
                .map(BlocklistChangeResponse::of).toList());
    }
}
