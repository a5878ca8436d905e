Feature: An approved stock change reaches every slice of a sale
  In order that a sale split into slices sells exactly its new stock after an approved change, whichever slice serves its buyers
  As the operators of a flash sale
  We want each slice to take its share of an approved change, and a slice that has sold out to be brought units from another slice before it gives up its part of a reduction

  Background:
    Given a sale that has started with a limit of 1 per buyer, split into 3 slices, offering:
      | product | units |
      | ticket  | 30    |
    And the sale is ready to sell

  Scenario: Stock added to a sale in slices is shared among the slices, and the sale sells exactly its new stock
    When the operator Olivia proposes adding 6 tickets because "a returned pallet was found"
    And the operator Peter approves the proposal
    Then the change is recorded with its operator and reason, taking tickets from 30 to 36
    And the whole sale was checked after the change and found in order
    And the fast store offers 36 tickets out of 36
    When 40 buyers each send 1 reservation request at the same moment
    Then exactly 36 reservations are accepted
    And the other 4 are refused as sold out or over the limit
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 36 tickets sold out of 36
    And the shop's books and the fast store agree

  Scenario: Stock removed while one slice is sold out: that slice is brought units from another to give its part, and the sale sells exactly its new stock
    Given the shop has stopped moving stock between the slices by itself
    And 10 buyers whose home is slice 2 of the sale each hold 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And slice 2 of the sale has no tickets left
    When the operator Olivia proposes removing 6 tickets because "six were damaged"
    And the operator Peter approves the proposal
    Then the change is recorded with its operator and reason, taking tickets from 30 to 24
    And the whole sale was checked after the change and found in order
    And the fast store offers 14 tickets out of 24
    When 40 buyers each send 1 reservation request at the same moment
    Then exactly 14 reservations are accepted
    And the other 26 are refused as sold out or over the limit
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 24 tickets sold out of 24
    And the shop's books and the fast store agree
