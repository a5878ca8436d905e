Feature: An ended sale is archived
  In order to keep the fast store small while the shop's records stay complete
  As the operator of the service
  I want an ended sale cleared out of the fast store once every reservation of it is settled, its records kept on the books

  Scenario: A sale cannot be archived before it ends
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator archives the sale
    Then the archive is refused because the sale has not ended yet, and the operator is told when it ends
    And the fast store still holds the sale
    And 10 tickets are still available

  Scenario: An ended sale with every reservation settled is archived, and its records stay on the books
    Given a sale that has started and ends in 10 minutes, with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And Alice has an order for 1 ticket
    And Bob has an order for 2 tickets
    And Alice pays for her order
    When the sale has ended
    And the operator archives the sale
    Then the sale is archived
    And the fast store holds nothing of the sale any more
    And anyone can still look at the sale, with what is left of each product as the books say
    And 7 tickets are still available
    And the shop's books show 3 tickets sold out of 10
    And the shop's books still hold what every buyer bought
    And Alice still sees her order as paid
    And Bob still sees his order waiting for payment
    When the operator archives the sale again
    Then both archives name the same moment
    When the operator tries to load the sale into the fast store again
    Then the operator is refused because the sale is archived
    And the fast store holds nothing of the sale any more

  Scenario: A sale whose reservations are still on their way to the books is archived only once they arrive
    Given a sale that has started and ends in 10 minutes, with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And the shop has stopped turning reservations into orders for a while
    And Alice holds 1 ticket
    When the sale has ended
    And the operator archives the sale
    Then the archive is refused for now, and the operator is asked to try again later
    And the fast store still holds the sale
    When the shop turns reservations into orders again
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the operator archives the sale
    Then the sale is archived
    And the fast store holds nothing of the sale any more
    And the shop's books show 1 ticket sold out of 10
    And the shop's books still hold what every buyer bought
