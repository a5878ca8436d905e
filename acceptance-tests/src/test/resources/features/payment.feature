Feature: Paying for an order
  In order to make the units I won mine for good
  As a buyer
  I want to pay for my order once it is placed, without harm if I pay twice, and be told plainly when it is too late

  Scenario: A buyer pays for an order
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Alice pays for her order
    Then Alice's order is paid
    And the shop's books record Alice's order as paid
    And the shop's books show 1 ticket sold out of 5
    And 4 tickets are still available
    And the shop's books and the fast store agree

  Scenario: Paying twice is harmless
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Alice pays for her order
    And Alice pays for her order again
    Then both of Alice's payments show the same order, paid once
    And the shop's books show 1 ticket sold out of 5
    And the shop's stock movements show 1 ticket sold and 0 given back
    And the shop's books and the fast store agree

  Scenario: Nobody can pay for someone else's order
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Bob tries to pay for Alice's order
    Then Bob is told there is no such order
    And Alice still sees her order waiting for payment

  Scenario: A buyer who pays before the order is placed is asked to pay again shortly
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And the shop has stopped turning reservations into orders for a while
    And Alice holds 1 ticket
    When Alice pays for her reservation
    Then Alice is asked to pay again shortly, as her order is not placed yet
    When the shop turns reservations into orders again
    And within 30 seconds every accepted reservation is settled in the shop's books
    And Alice pays for her order
    Then Alice's order is paid

  Scenario: Paying after the order lapsed is refused, and the unit stays with whoever has it now
    Given a sale that has started with a limit of 1 per buyer and 900 seconds to pay, offering:
      | product | units |
      | ticket  | 1     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And Alice's order has lapsed unpaid
    And Bob has an order for 1 ticket
    And Bob pays for his order
    When Alice pays for her order
    Then Alice is refused because her order has lapsed and can no longer be paid
    And Bob still sees his order as paid
    And the shop's books record Alice's order as expired
    And the shop's books show 1 ticket sold out of 1
    And the shop's stock movements show 2 tickets sold and 1 given back
    And the shop's books and the fast store agree
