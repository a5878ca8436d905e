Feature: A crowd at a sale that is not there does not reach the shop's database
  In order to keep the shop's database calm when a crowd asks for a sale that does not exist, or is not loaded yet
  As the operator of the service
  I want the service to remember such a sale for a moment instead of asking the database at every request

  Scenario: Ten thousand requests for a sale that does not exist
    When 10000 buyers try to reserve in a sale that does not exist
    Then every one of them is told the sale does not exist
    And the shop's database was asked about the sale at most once every 2 seconds

  Scenario: A crowd that comes before the sale is loaded
    Given a sale that starts in 1 hour, offering:
      | product | units |
      | ticket  | 10    |
    When 2000 buyers try to reserve 1 ticket
    Then every one of them is asked to come back in a moment
    And the shop's database was asked about the sale at most once every 2 seconds
