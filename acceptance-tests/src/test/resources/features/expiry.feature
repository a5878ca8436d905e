Feature: Unpaid orders lapse and give their units back
  In order to sell every unit to someone who really pays
  As a merchant running a flash sale
  I want an order that is not paid within the sale's time to pay to lapse, and its units to go back on sale

  Scenario: An unpaid order lapses after the time to pay, and its unit is sold again
    Given a sale that has started with a limit of 1 per buyer and 900 seconds to pay, offering:
      | product | units |
      | ticket  | 1     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    Then Alice's order is waiting for payment
    And within 60 seconds Alice's order lapses unpaid
    And within 5 seconds 1 ticket is available again
    When Bob reserves 1 ticket
    Then the reservation is accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    When Bob pays for his order
    Then Bob's order is paid
    And the shop's books show 1 ticket sold out of 1
    And the shop's stock movements show 2 tickets sold and 1 given back
    And the shop's books and the fast store agree

  Scenario: Paying after the order lapsed is refused and sells nothing
    Given a sale that has started with a limit of 1 per buyer and 900 seconds to pay, offering:
      | product | units |
      | ticket  | 3     |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And Alice's order has lapsed unpaid
    When Alice pays for her order
    Then Alice's payment is refused because her order has lapsed, and kept for a refund
    And the shop's books record Alice's order as expired
    And within 5 seconds 3 tickets are available again
    And the shop's books show 0 tickets sold out of 3
    And the shop's stock movements show 1 ticket sold and 1 given back
    And the shop's books and the fast store agree
