Feature: Units given back are sold again
  In order to sell every unit, also those whose first buyer changed their mind or never paid
  As a merchant running a flash sale
  I want the units of cancelled and lapsed orders back on sale at once for other buyers, and never sold twice

  Scenario: 10 units sold, 3 orders cancelled and 2 lapsed: 5 new buyers get them and a sixth is refused
    Given a sale that has started with a limit of 1 per buyer and 900 seconds to pay, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And 10 buyers each have an order for 1 ticket
    When 5 of them pay for their orders
    And 3 of them cancel their orders
    Then the orders of the other 2 lapse unpaid
    And within 10 seconds 5 tickets are available again
    When 6 more buyers each reserve 1 ticket, one after another
    Then the first 5 of them are accepted and the last is refused because tickets are sold out
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 10 tickets sold out of 10
    And the shop's stock movements show 15 tickets sold and 5 given back
    And no ticket is held as reserved any more, 10 are sold
    And the shop's books and the fast store agree
