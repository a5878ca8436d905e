Feature: The sale goes on while the fast store is down
  In order not to lose a sale when the fast stock store fails in the middle of it
  As the shop
  I want the shop's database to take reservations while the fast store is down, and the fast store to take them over again, with the right
  stock, when it is back, without ever selling more than the stock or more than a buyer may have

  @redisOutage
  Scenario: The fast store dies in the middle of a sale and comes back empty
    Given a service instance runs on a fast store of its own, with a sale of 20 units and a limit of 1 per buyer
    And 5 buyers have reserved a unit, and their orders are in the shop's database
    When that fast store is killed
    Then 15 more buyers can each reserve a unit, taken by the database at once as an order
    And the next buyer is told the sale is sold out
    And a buyer who already has a unit cannot reserve another
    And a buyer asking after a reservation the shop's database has not recorded is asked to try again, not told it does not exist
    When 3 of the buyers who ordered while the fast store was down cancel
    And the fast store is started again with nothing in it
    Then within 30 seconds the fast store takes the reservations again
    And the same buyer asking after it again is told there is no such reservation
    And exactly 3 more buyers can each reserve a unit before the sale is sold out again
    And the shop's database has sold exactly 20 units, no buyer more than 1
    And no buyer was ever answered with a server error
