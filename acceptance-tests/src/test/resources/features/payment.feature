Feature: Paying for an order
  In order to make the units a buyer won hers for good, and only once she has really paid
  As a merchant running a flash sale
  I want an order paid when the payment provider confirms the buyer's payment, once per payment, and a payment that
  cannot pay the order refused plainly and kept for a refund

  Scenario: The payment provider confirms a buyer's payment
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When the payment provider confirms Alice's payment
    Then Alice's order is paid
    And the shop's books record Alice's order as paid
    And the shop's books show 1 ticket sold out of 5
    And 4 tickets are still available
    And the shop's books and the fast store agree

  Scenario: The same confirmation twice is harmless
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When the payment provider confirms Alice's payment
    And the payment provider confirms the same payment of Alice's again
    Then both confirmations show Alice's order paid once
    And the shop's books show 1 ticket sold out of 5
    And the shop's stock movements show 1 ticket sold and 0 given back
    And the shop's books and the fast store agree

  Scenario: A second payment for a paid order is refused and kept for a refund
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And the payment provider confirms Alice's payment
    When the payment provider confirms a second payment for Alice's order
    Then the second payment for Alice's order is refused and kept for a refund
    And Alice still sees her order as paid
    And the shop's books show 1 ticket sold out of 5

  Scenario: A buyer cannot mark her order as paid
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    When Alice tries to mark her order as paid herself
    Then Alice is told that only the payment provider confirms payments
    And Alice still sees her order waiting for payment

  Scenario: A payment confirmed before the order is placed is confirmed again shortly
    Given a sale that has started with a limit of 1 per buyer and 60 seconds to pay, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And the shop has stopped turning reservations into orders for a while
    And Alice holds 1 ticket
    When the payment provider confirms Alice's payment
    Then the payment provider is asked to confirm Alice's payment again shortly, as the order is not placed yet
    When the shop turns reservations into orders again
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the payment provider confirms the same payment of Alice's again
    Then Alice's order is paid

  Scenario: Paying after the order lapsed is refused and kept for a refund, and the unit stays with whoever has it now
    Given a sale that has started with a limit of 1 per buyer and 900 seconds to pay, offering:
      | product | units |
      | ticket  | 1     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And Alice's order has lapsed unpaid
    And Bob has an order for 1 ticket
    And Bob pays for his order
    When Alice pays for her order
    Then Alice's payment is refused because her order has lapsed, and kept for a refund
    And Bob still sees his order as paid
    And the shop's books record Alice's order as expired
    And the shop's books show 1 ticket sold out of 1
    And the shop's stock movements show 2 tickets sold and 1 given back
    And the shop's books and the fast store agree
