// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {UniswapV2Pair} from "./UniswapV2Pair.sol";

/// @title UniswapV2Factory: creates one UniswapV2Pair per token pair, speaking the Uniswap V2 factory ABI.
/// @notice Pairs are deployed with CREATE2 (salt keccak256(token0, token1)), so their addresses are
///         deterministic; INIT_CODE_PAIR_HASH is the hash of OUR pair's creation code, not Uniswap's.
contract UniswapV2Factory {
    bytes32 public constant INIT_CODE_PAIR_HASH = keccak256(type(UniswapV2Pair).creationCode);

    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "UniswapV2: IDENTICAL_ADDRESSES");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "UniswapV2: ZERO_ADDRESS");
        require(getPair[token0][token1] == address(0), "UniswapV2: PAIR_EXISTS");
        pair = address(new UniswapV2Pair{salt: keccak256(abi.encodePacked(token0, token1))}());
        UniswapV2Pair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}
