"""The contract's shared helpers: a state's answers remembered while the same state is asked again."""
from engine.rules.protocol import last_answer


class State(tuple):
    pass


def test_the_same_state_asked_again_is_answered_without_working_it_out():
    worked = []

    @last_answer
    def actors(state, seat=None):
        worked.append((state, seat))
        return (len(worked),)

    one, other = State((1,)), State((1,))  # equal, but a different state
    assert actors(one) == actors(one) == (1,)
    assert actors(one, 0) == (2,)  # other arguments: worked out again
    assert actors(other, 0) == (3,)  # an equal state is not the same state
    assert actors(other, 0) == (3,)
    assert actors(one) == (4,)  # only the last answer is kept
    assert len(worked) == 4
    assert actors.__name__ == "actors"
