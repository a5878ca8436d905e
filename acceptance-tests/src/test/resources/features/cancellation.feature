Feature: Cancelling an order gives its units back at once
  In order to change my mind without blocking anyone else
  As a buyer
  I want to cancel my reservation or my unpaid order, and have its units on sale again for other buyers at once

  Scenario: A cancelled order's unit is back on sale at once, and another buyer gets it
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 1     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Alice cancels her order
    Then Alice's order is cancelled
    And 1 ticket is still available
    When Bob reserves 1 ticket
    Then the reservation is accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books record Alice's order as cancelled
    And the shop's books show 1 ticket sold out of 1
    And the shop's stock movements show 2 tickets sold and 1 given back
    And the shop's books and the fast store agree

  Scenario: A reservation cancelled before it became an order never becomes one
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And the shop has stopped turning reservations into orders for a while
    And Alice holds 1 ticket
    When Alice cancels her reservation
    Then Alice's reservation is cancelled before it ever became an order
    And 5 tickets are still available
    When the shop turns reservations into orders again
    Then within 30 seconds the shop's books record Alice's reservation as cancelled, without selling anything
    And Alice sees her reservation cancelled, never an order
    And the shop's books show 0 tickets sold out of 5
    And the shop's books and the fast store agree

  Scenario: Cancelling twice is harmless
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Alice cancels her order
    And Alice cancels her order again
    Then both of Alice's cancellations show the same order, cancelled once
    And 5 tickets are still available
    And the shop's stock movements show 1 ticket sold and 1 given back
    And the shop's books and the fast store agree

  Scenario: A paid order cannot be cancelled
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And Alice pays for her order
    When Alice cancels her order
    Then Alice is refused because a paid order cannot be cancelled
    And Alice still sees her order as paid
    And 4 tickets are still available
    And the shop's books show 1 ticket sold out of 5
    And the shop's books and the fast store agree
