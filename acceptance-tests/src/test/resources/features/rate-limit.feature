Feature: An eager buyer is slowed down, the others are not
  In order to keep one buyer's script or impatient finger from crowding out everyone else at a flash sale
  As the shop running the sale on several service instances
  I want each buyer to have a short burst of attempts and then a steady pace, whichever instance they reach,
  and to be told when to try again

  Scenario: A buyer hammering two instances gets a burst and then a pace; another buyer goes straight through
    Given two service instances selling one sale of 100 T-shirts, each buyer allowed 10 attempts at once and 1 more a second
    When Alice tries to reserve a T-shirt 30 times as fast as she can, alternating between the two instances
    Then between 10 and 13 of Alice's attempts reserve a T-shirt
    And each of her other attempts is told to slow down, with how long to wait before trying again
    And Bob reserves a T-shirt on either instance at once
    And as many T-shirts are reserved as Alice and Bob were told they reserved
    When Alice waits as long as she was told
    Then Alice reserves a T-shirt again
