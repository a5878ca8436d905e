Feature: Every accepted reservation becomes exactly one order
  In order to honour every reservation the sale accepted, once and only once
  As a merchant running a flash sale
  I want each accepted reservation to become exactly one order in the shop's books, and a buyer whose reservation the books cannot honour told so

  Scenario: Every accepted reservation becomes exactly one order
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When 200 buyers each send 1 reservation request at the same moment
    Then exactly 10 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly 10 orders, none failed
    And the shop's books show 10 tickets sold out of 10
    And the shop's stock movements add up to 10 tickets sold
    And no ticket is held as reserved any more, 10 are sold
    And every winner sees their reservation as ordered

  Scenario: The shop is told of a reservation twice and still makes one order
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    When the shop is told of Alice's reservation a second time
    Then within 30 seconds the second notice has been dealt with
    And the shop's books hold exactly 1 order, none failed
    And the shop's books show 1 ticket sold out of 5
    And the shop's stock movements add up to 1 ticket sold
    And no ticket is held as reserved any more, 1 is sold
    And 4 tickets are still available
    And Alice sees her reservation as ordered

  Scenario: An order that the shop's books refuse is reported as failed
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    But the shop's books count only 6 tickets, fewer than the sale offers
    When 10 buyers each send 1 reservation request at the same moment
    Then exactly 10 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly 6 orders and 4 failed ones
    And the shop's books show 6 tickets sold out of 6
    And the shop's stock movements add up to 6 tickets sold
    And 6 winners see their reservation as ordered
    And the other 4 see their reservation as failed because the shop's books ran out of stock

  Scenario: A reservation the shop's books refuse for good fails at once, and its units come back exactly once
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    But the shop's books count only 0 tickets, fewer than the sale offers
    And Alice holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    Then the shop's books hold exactly 0 orders and 1 failed one
    And the other 1 sees their reservation as failed because the shop's books ran out of stock
    And 5 tickets are still available
    When the shop is told of Alice's reservation a second time
    Then within 30 seconds the second notice has been dealt with
    And the shop's books hold exactly 0 orders and 1 failed one
    And no ticket is held as reserved any more, 0 are sold
    And 5 tickets are still available
