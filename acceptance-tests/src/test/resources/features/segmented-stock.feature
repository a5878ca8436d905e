Feature: A hot product's stock kept in several counters sells as one stock
  In order to sell a very hot product fast without ever turning a buyer away while units are left
  As a merchant running a flash sale
  I want a product whose stock is kept in several counters to be sold exactly as if it were one stock

  Scenario: One buyer takes more units than any single counter holds
    Given a sale that has started with a limit of 10 per buyer, offering:
      | product | units | counters |
      | ticket  | 10    | 4        |
    And the sale is ready to sell
    When Alice reserves 10 tickets
    Then the reservation is accepted and holds 10 tickets
    And 0 tickets are still available
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 10 tickets sold out of 10
    And the shop's books and the fast store agree

  Scenario: The last units, scattered over the counters, go to whoever asks for all of them
    Given a sale that has started with a limit of 10 per buyer, offering:
      | product | units | counters |
      | ticket  | 10    | 4        |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And Bob holds 2 tickets
    When Carol reserves 8 tickets
    Then Carol is refused because there are not enough tickets, only 7 left
    When Carol reserves 7 tickets
    Then the reservation is accepted and holds 7 tickets
    And 0 tickets are still available
    When Dave reserves 1 ticket
    Then Dave is refused because tickets are sold out

  Scenario: Units given back to a split stock are sold again in one piece
    Given a sale that has started with a limit of 10 per buyer and 60 seconds to pay, offering:
      | product | units | counters |
      | ticket  | 10    | 4        |
    And the sale is ready to sell
    And Alice has an order for 10 tickets
    When Alice cancels her order
    Then 10 tickets are still available
    When Bob reserves 10 tickets
    Then the reservation is accepted and holds 10 tickets
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 10 tickets sold out of 10
    And the shop's stock movements show 20 tickets sold and 10 given back
    And the shop's books and the fast store agree
