# Match-play cube decisions in C, for the rollout kernel's referee (no GIL): the model of
# bgengine.cube.match_model (cubeful MWC = (1 - x) dead + x live, the live cube's take and
# cash points found up the cube until it is dead, the taker's immediate redouble, the
# Crawford and post-Crawford rules, the maximum cube) over the match equity table, from the
# mover's cubeless 5-vector. Same arithmetic in the same order as the Python model, so the
# decisions are the same. Owners are seen from the mover: +1 the mover owns the cube, -1 the
# opponent, 0 centred. Action codes are bgengine.rollouts.referee's.

cdef enum:
    MET_MAX_AWAY = 32           # away scores the C table holds (larger: the Python referee)

cdef struct MatchCube:
    bint active                 # 0: the Python referee decides
    double efficiency[3]        # Janowski's x of the decision at hand by cube state, efficiency[owner + 1]
                                # with the owner from the player valued (the kernel sets them per
                                # position; the post-Crawford raise already applied)
    int root_away               # points the root player needs
    int other_away              # points the other player needs
    bint crawford               # this game is the Crawford game: no cube
    bint after_crawford         # results are read from the post-Crawford row
    int max_cube                # no double beyond it
    double pre[MET_MAX_AWAY * MET_MAX_AWAY]   # pre_crawford[i][j] at i * MET_MAX_AWAY + j
    double post[MET_MAX_AWAY]                 # post_crawford[j]

# Fill ``m`` from a referee's ``match_cube_in_c()``: (root away, other away, crawford,
# after_crawford, max cube, pre-Crawford table, post-Crawford row), and x = ``efficiency`` (one
# number for every state, or a triple by state: opponent owns, centred, owned).
cdef int match_cube_from(MatchCube* m, object spec, object efficiency) except -1

# The mover's action code before rolling (CubeReferee.decide).
cdef int match_decide(const MatchCube* m, const float* mover5, int cube_value, int owner,
                      bint mover_is_root) noexcept nogil

# The root's MWC of a position where the game stops, the mover taking its best cube action
# (CubeReferee.position_value).
cdef double match_position_value(const MatchCube* m, const float* mover5, int cube_value, int owner,
                                 bint mover_is_root) noexcept nogil

# The root's MWC after a game it won (> 0) or lost (< 0) by 1, 2 or 3 per cube (finished_value).
cdef double match_finished_value(const MatchCube* m, int root_result, int cube_value) noexcept nogil

# The root's MWC per point of cubeless equity at this cube (luck_scale).
cdef double match_luck_scale(const MatchCube* m, int cube_value) noexcept nogil
