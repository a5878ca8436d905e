package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;
import java.util.List;

/** The proposed stock adjustments; the SQL lives in AdjustmentProposalDao.xml beside this interface. */
@Mapper
interface AdjustmentProposalDao {

    void insertProposal(AdjustmentProposalRow proposal);

    /** The id the last insert on this connection made. */
    long selectLastInsertId();

    AdjustmentProposalRow selectProposal(@Param("activityId") String activityId, @Param("id") long id);

    /** The proposal, locked for the rest of the transaction: approvals of it serialize here. */
    AdjustmentProposalRow selectProposalForUpdate(@Param("activityId") String activityId, @Param("id") long id);

    List<AdjustmentProposalRow> selectByActivity(@Param("activityId") String activityId);

    /** PENDING to APPROVED, only while unexpired and by someone other than its proposer; the rows changed (0 or 1). */
    int approve(@Param("id") long id, @Param("approver") String approver, @Param("at") Instant at,
                @Param("adjustmentId") long adjustmentId);

    /** PENDING to {@code status} (REJECTED or WITHDRAWN); the rows changed (0 or 1). */
    int close(@Param("id") long id, @Param("status") String status, @Param("operator") String operator,
              @Param("at") Instant at);
}
