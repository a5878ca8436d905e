Feature: Several products in one request are reserved together or not at all
  In order to get a complete bundle or nothing
  As a buyer
  I want a request for several products to reserve all of them, or none of them

  Background:
    Given a sale that has started with a limit of 5 per buyer, offering:
      | product    | units |
      | console    | 10    |
      | controller | 1     |
    And the sale is ready to sell

  Scenario: One product running short means nothing is reserved
    When Alice reserves 1 console and 2 controllers together
    Then Alice is refused because there are not enough controllers, only 1 left
    And no console has been taken
    And no controller has been taken

  Scenario: One product sold out means nothing is reserved
    Given Bob holds 1 controller
    When Alice reserves 1 console and 1 controller together
    Then Alice is refused because controllers are sold out
    And no console has been taken
    And 0 controllers are still available

  Scenario: When every product has stock, all of them are reserved in one reservation
    When Alice reserves 2 consoles and 1 controller together
    Then the reservation is accepted and holds 2 consoles and 1 controller
    And 8 consoles are still available
    And 0 controllers are still available
