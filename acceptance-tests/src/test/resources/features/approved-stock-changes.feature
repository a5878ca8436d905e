Feature: A stock change needs a second operator
  In order that no single operator's slip or decision changes what buyers can buy
  As the operators of a flash sale
  We want every manual stock change proposed by one of us and applied only once another of us approves it

  Background:
    Given a sale that has started with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell

  Scenario: The proposer cannot approve their own change; a second operator's approval applies it and the sale is checked
    When the operator Olivia proposes adding 5 tickets because "a returned pallet was found"
    Then the change waits for a second operator and nothing has changed yet
    And the fast store offers 10 tickets out of 10
    When the operator Olivia approves the proposal
    Then the approval is refused because a second operator must approve the change
    And the fast store offers 10 tickets out of 10
    When the operator Peter approves the proposal
    Then the change is recorded with its operator and reason, taking tickets from 10 to 15
    And the whole sale was checked after the change and found in order
    And the fast store offers 15 tickets out of 15
    When the operator Olivia approves the proposal
    Then the approval is refused because the proposal was closed already
    And the fast store offers 15 tickets out of 15
    And the shop's books and the fast store agree

  Scenario: A proposal left waiting too long can no longer be approved
    When the operator Olivia proposes removing 2 tickets because "counted twice"
    And 31 minutes pass without a decision
    And the operator Peter approves the proposal
    Then the approval is refused because the proposal expired
    And the fast store offers 10 tickets out of 10
    And the shop's books and the fast store agree

  Scenario: Proposals withdrawn by their proposer or rejected by another operator change nothing, and stay on record
    When the operator Olivia proposes adding 5 tickets because "a pallet may have come back"
    And the operator Olivia withdraws the proposal
    And the operator Peter proposes removing 3 tickets because "three looked damaged"
    And the operator Olivia rejects the proposal
    And the operator Peter approves the proposal
    Then the approval is refused because the proposal was closed already
    And the fast store offers 10 tickets out of 10
    And the sale's proposed stock changes read:
      | proposed by | change | status    | decided by |
      | Olivia      | 5      | withdrawn | Olivia     |
      | Peter       | -3     | rejected  | Olivia     |
